package command

import (
	"os"
	"path/filepath"
	"testing"
)

// TestControllerRESTConfig: the controller's Kubernetes client may make
// 5 requests a second per reconcile a second (bursts of 10), not
// client-go's 5 in all, which bounded creates and polls at scale.
func TestControllerRESTConfig(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	doc := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`
	if err := os.WriteFile(kubeconfig, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		rate      int
		wantQPS   float32
		wantBurst int
	}{
		"default rate": {rate: 10, wantQPS: 50, wantBurst: 100},
		"rate 50":      {rate: 50, wantQPS: 250, wantBurst: 500},
		"no rate":      {rate: 0, wantQPS: 50, wantBurst: 100},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, err := restConfig(kubeconfig, tc.rate)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.QPS != tc.wantQPS || cfg.Burst != tc.wantBurst {
				t.Errorf("QPS %v, burst %d; want %v, %d", cfg.QPS, cfg.Burst, tc.wantQPS, tc.wantBurst)
			}
		})
	}
}
