package getproviders_test

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/cairn-iac/cairn/internal/testprovsrv"
)

// BenchmarkRegistryInstall downloads, authenticates and installs the real
// hashicorp/random 3.9.0 plugin (26 MB) from the loopback registry: the
// work of one provider in "cairn init". Reports requests per install.
func BenchmarkRegistryInstall(b *testing.B) {
	bin, ok := testproviders.Binary("random")
	if !ok {
		b.Skip("the random test provider is not built")
	}
	srv := testprovsrv.Start(b)
	plat := getproviders.CurrentPlatform()
	srv.Add(b, testprovsrv.Release{Namespace: "hashicorp", Type: "random", Version: "3.9.0", Binary: bin, Platform: plat.String(), Others: []string{"darwin_arm64"}})
	p := addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"}
	src := getproviders.Source{Methods: []getproviders.Method{{Kind: getproviders.Direct}}, Platform: plat, HTTP: &getproviders.HTTP{Client: srv.Client}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		avail, err := src.Available(p)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (getproviders.Installer{TargetDir: b.TempDir()}).Install(avail[0], nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(srv.Requests("/.well-known/terraform.json")+srv.Requests("/v1/providers/hashicorp/random/versions"))/float64(b.N), "queries/op")
}
