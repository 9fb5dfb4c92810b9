package modulerun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/modinstall"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/testmodsrv"
)

// TestFetched: a remote source is fetched once into the fetch directory
// (by this Fetched and by a later one on the same directory, as the next
// plugin process is), the module's own remote calls are installed
// beside it, and it plans as a root; a source that cannot be fetched is
// an error that leaves nothing behind.
func TestFetched(t *testing.T) {
	srv := testmodsrv.Start(t)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	srv.AddArchive(t, "leaf", map[string]string{"main.tf": "resource \"terraform_data\" \"leaf\" {}\n"})
	srv.AddArchive(t, "outer", map[string]string{
		"main.tf": "resource \"terraform_data\" \"outer\" {}\nmodule \"leaf\" {\n  source = \"" + srv.URL + "/archive/leaf.zip\"\n}\n",
	})
	dir := t.TempDir()
	fetcher := func() *Fetched {
		return &Fetched{Dir: dir, Fetcher: modinstall.NewFetcher(modinstall.WithHTTPClient(srv.Client))}
	}
	src := Source{Source: srv.URL + "/archive/outer.zip"}
	ctx := context.Background()

	first := fetcher()
	for _, f := range []*Fetched{first, first, fetcher()} {
		m, ds := Load(ctx, src, Options{Resolver: f})
		if ds.HasErrors() {
			t.Fatalf("Load: %s", ds.Err())
		}
		p, ds := m.Plan(ctx, plans.NormalMode, nil, nil)
		if ds.HasErrors() {
			t.Fatalf("Plan: %s", ds.Err())
		}
		want := map[string]string{"terraform_data.outer": "create", "module.leaf.terraform_data.leaf": "create"}
		if diff := cmp.Diff(want, actions(p.Instances)); diff != "" {
			t.Errorf("planned actions (-want +got):\n%s", diff)
		}
	}
	for _, name := range []string{"/archive/outer.zip", "/archive/leaf.zip"} {
		if n := srv.Requests(name); n != 1 {
			t.Errorf("%s fetched %d times, want once", name, n)
		}
	}

	bad := Source{Source: "git::" + srv.URL + "/git/none.git?ref=v1"}
	if _, err := fetcher().Resolve(ctx, bad); err == nil {
		t.Fatal("a missing repository resolved")
	}
	if _, err := os.Stat(filepath.Join(dir, fetchedKey(bad))); !os.IsNotExist(err) {
		t.Errorf("a failed fetch left its package: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, fetchedKey(bad)+fetchedMarker)); !os.IsNotExist(err) {
		t.Errorf("a failed fetch left its marker: %v", err)
	}
}
