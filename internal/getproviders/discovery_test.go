package getproviders_test

import (
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// TestDiscoveryOnce checks that one Source asks a host for its
// discovery document once, however many of its providers are looked up
// at the same time, as Terraform asks once per run.
func TestDiscoveryOnce(t *testing.T) {
	srv, _ := startRegistry(t)
	src := remoteSource(srv, getproviders.Method{Kind: getproviders.Direct})
	var wg sync.WaitGroup
	for _, ns := range []string{"hashicorp", "tampered", "wrongkey", "unsigned", "otherplat"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := addrs.Provider{Hostname: srv.Host, Namespace: ns, Type: "random"}
			if _, err := src.Available(p); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}()
	}
	wg.Wait()
	if got := srv.Requests("/.well-known/terraform.json"); got != 1 {
		t.Errorf("the discovery document was asked for %d times, want once", got)
	}
}
