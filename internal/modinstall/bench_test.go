package modinstall

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkParseSource parses one source of each kind per op.
func BenchmarkParseSource(b *testing.B) {
	sources := []string{
		"./modules/net", "hashicorp/consul/aws", "github.com/org/repo//modules/net?ref=v1.2.0",
		"git::https://example.com/net.git?ref=v1&depth=1", "https://example.com/net.tar.gz//sub",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sources {
			if _, err := ParseSource(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkInstall installs a tree of four calls (a git package used
// twice, an archive, a registry module) from the loopback server:
// Fresh fetches everything (reporting the GET requests made), Kept is
// the re-run every later "cairn init" pays, which must make none. Peak
// RSS is the benchmark process's.
func BenchmarkInstall(b *testing.B) {
	srv, repo := startServer(b)
	main := `
module "g1" { source = "git::` + repo + `?ref=v1" }
module "g2" { source = "git::` + repo + `//sub?ref=v1" }
module "a" { source = "` + srv.URL + `/archive/net.tar.gz" }
module "r" {
  source  = "` + srv.Host + `/org/net/aws"
  version = "~> 1.0"
}
`
	setup := func(b *testing.B) string {
		root := b.TempDir()
		if err := os.WriteFile(filepath.Join(root, "main.tf"), []byte(main), 0o644); err != nil {
			b.Fatal(err)
		}
		return root
	}
	install := func(b *testing.B, root string, prior Manifest) Manifest {
		in := &Installer{Root: root, ModulesDir: ".terraform/modules", Fetcher: NewFetcher(WithHTTPClient(srv.Client)), Hooks: &hookLog{}}
		man, ds := in.Install(context.Background(), prior)
		if ds.HasErrors() {
			b.Fatal(ds.Error())
		}
		return man
	}
	gets := func() int {
		return srv.Requests("/archive/net.tar.gz") + srv.Requests("/archive/net.zip") + srv.Requests("/git/net.git/info/refs")
	}
	b.Run("Fresh", func(b *testing.B) {
		before := gets()
		for b.Loop() {
			install(b, setup(b), nil)
		}
		b.ReportMetric(float64(gets()-before)/float64(b.N), "GETs/op")
		reportPeakRSS(b)
	})
	b.Run("Kept", func(b *testing.B) {
		root := setup(b)
		man := install(b, root, nil)
		before := gets()
		b.ReportAllocs()
		for b.Loop() {
			install(b, root, man)
		}
		b.ReportMetric(float64(gets()-before)/float64(b.N), "GETs/op")
		reportPeakRSS(b)
	})
}

func reportPeakRSS(b *testing.B) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
	}
}
