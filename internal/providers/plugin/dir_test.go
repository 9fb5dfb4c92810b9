package plugin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// TestLaunchDir reads a file by a relative path with the real local
// provider: the path names a file in Options.Dir, as it names one in the
// -chdir directory for Terraform's plugins, and the caller's directory
// without it.
func TestLaunchDir(t *testing.T) {
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "probe.txt"), []byte("here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		dir      string
		wantRead bool
	}{
		"in Dir":              {dir: work, wantRead: true},
		"in the caller's dir": {dir: "", wantRead: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := configuredIn(t, "local", tc.dir)
			db := s.schema.DataSources["local_file"].Block
			cfg := s.config(db, map[string]cty.Value{"filename": cty.StringVal("probe.txt")})
			read := s.c.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "local_file", Config: cfg})
			if read.Diagnostics.HasErrors() == tc.wantRead {
				t.Fatalf("read in %q: diagnostics %v, want a read: %v", tc.dir, read.Diagnostics, tc.wantRead)
			}
			if tc.wantRead && !read.State.GetAttr("content").RawEquals(cty.StringVal("here\n")) {
				t.Errorf("content = %#v", read.State.GetAttr("content"))
			}
		})
	}
}
