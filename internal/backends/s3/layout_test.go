package s3

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/cairn-iac/cairn/internal/tests3"
)

// TestLayoutIsTerraforms: each workspace's state is the object Terraform
// names for it, the workspaces are listed from those objects only (not
// lock objects, journals or other configurations' keys), and deleting a
// workspace deletes its object.
func TestLayoutIsTerraforms(t *testing.T) {
	srv := tests3.Start(t)
	for _, tc := range []struct {
		name, key, prefix string
		want              map[string]string // workspace -> object key
	}{
		{"default prefix", "terraform.tfstate", "", map[string]string{
			"default": "terraform.tfstate", "dev": "env:/dev/terraform.tfstate", "prod": "env:/prod/terraform.tfstate"}},
		{"nested key", "net/vpc/terraform.tfstate", "", map[string]string{
			"default": "net/vpc/terraform.tfstate", "dev": "env:/dev/net/vpc/terraform.tfstate"}},
		{"own prefix", "app.tfstate", "teams/app", map[string]string{
			"default": "app.tfstate", "staging": "teams/app/staging/app.tfstate"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(srv)
			cfg.Key, cfg.WorkspaceKeyPrefix = tc.key, tc.prefix
			b := openTest(t, cfg, openOptions{})
			var names []string
			for ws, key := range tc.want {
				names = append(names, ws)
				if ws != "default" {
					if err := b.CreateWorkspace(ws); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := stateOf(t, b, ws).Persist(backendtest.StateWith(1)); err != nil {
					t.Fatal(err)
				}
				if _, ok := srv.Get(t, key); !ok {
					t.Errorf("workspace %s: no object at %s; bucket holds %q", ws, key, srv.List(t, ""))
				}
			}
			// Objects that are not workspaces' states, under the prefix.
			prefix := cfg.WorkspaceKeyPrefix
			if prefix == "" {
				prefix = DefaultWorkspaceKeyPrefix
			}
			srv.Put(t, prefix+"/other/another.tfstate", []byte("{}"))
			srv.Put(t, prefix+"/locked/"+tc.key+".tflock", []byte("{}"))
			srv.Put(t, prefix+"/crashed/"+tc.key+".cairn-journal/00000000000000000000", []byte("{}"))
			slices.Sort(names)
			names = slices.DeleteFunc(names, func(n string) bool { return n == "default" })
			got, err := b.Workspaces()
			if err != nil {
				t.Fatal(err)
			}
			if want := append([]string{"default"}, names...); !slices.Equal(got, want) {
				t.Errorf("Workspaces() = %q, want %q", got, want)
			}
			for _, ws := range names {
				if err := b.DeleteWorkspace(ws); err != nil {
					t.Fatal(err)
				}
				if _, ok := srv.Get(t, tc.want[ws]); ok {
					t.Errorf("workspace %s: object %s still there after DeleteWorkspace", ws, tc.want[ws])
				}
			}
			if got, _ := b.Workspaces(); !slices.Equal(got, []string{"default"}) {
				t.Errorf("after deleting: Workspaces() = %q", got)
			}
			if err := b.DeleteWorkspace("default"); err == nil {
				t.Error("DeleteWorkspace(default) succeeded")
			}
			for _, k := range srv.List(t, "") {
				srv.Delete(t, k)
			}
		})
	}
}

// TestStateObjectIsTheLocalFile: the object holds exactly the bytes the
// local backend writes to terraform.tfstate for the same snapshot, so
// Terraform and OpenTofu read it as their own.
func TestStateObjectIsTheLocalFile(t *testing.T) {
	srv := tests3.Start(t)
	b := openTest(t, testConfig(srv), openOptions{})
	f := &statefile.File{Serial: 7, Lineage: "2d0c43a6-3fb4-4b1f-9a43-1f0d0d1e2a8b", State: backendtest.StateWith(3)}
	if err := stateOf(t, b, "default").Import(f, false); err != nil {
		t.Fatal(err)
	}
	local := statemgr.NewFilesystem(filepath.Join(t.TempDir(), "terraform.tfstate"))
	if err := local.Import(f, false); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(local.Path())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := srv.Get(t, "net/terraform.tfstate")
	if !bytes.Equal(got, want) {
		t.Fatalf("object differs from the local file:\n%s\nwant:\n%s", got, want)
	}
}

// TestEmptyWorkspace: a workspace with no object reads as no state; an
// empty object (which Terraform can leave) too.
func TestEmptyWorkspace(t *testing.T) {
	srv := tests3.Start(t)
	b := openTest(t, testConfig(srv), openOptions{})
	s := stateOf(t, b, "default")
	if f, err := s.Read(); err != nil || f != nil {
		t.Fatalf("Read of a missing object = %v, %v", f, err)
	}
	srv.Put(t, "net/terraform.tfstate", nil)
	if f, err := s.Read(); err != nil || f != nil {
		t.Fatalf("Read of an empty object = %v, %v", f, err)
	}
	f, err := s.Persist(backendtest.StateWith(2))
	if err != nil || f.Serial != 1 {
		t.Fatalf("Persist = %+v, %v", f, err)
	}
	again, err := s.Persist(backendtest.StateWith(2))
	if err != nil || again.Serial != 1 {
		t.Fatalf("Persist of the same state = serial %d, %v; want 1 (no new snapshot)", again.Serial, err)
	}
}

// TestUnreadableObjectIsRefusedAndKept: an object that is not a state is
// an error for every operation but a forced Import, and is never
// changed.
func TestUnreadableObjectIsRefusedAndKept(t *testing.T) {
	srv := tests3.Start(t)
	b := openTest(t, testConfig(srv), openOptions{})
	s := stateOf(t, b, "default")
	for _, junk := range []string{"not a state", `{"version": 4, "serial": "x"}`, `{"version": 99}`} {
		srv.Put(t, "net/terraform.tfstate", []byte(junk))
		var ue *statemgr.UnreadableError
		if _, err := s.Read(); !errorsAs(err, &ue) || !strings.Contains(err.Error(), "s3://") {
			t.Errorf("%q: Read error = %v, want an UnreadableError naming the object", junk, err)
		}
		if _, err := s.Persist(backendtest.StateWith(1)); err == nil {
			t.Errorf("%q: Persist over it succeeded", junk)
		}
		if _, err := s.BeginApply(nil); err == nil {
			t.Errorf("%q: BeginApply over it succeeded", junk)
		}
		if err := s.Import(&statefile.File{State: backendtest.StateWith(1)}, false); err == nil {
			t.Errorf("%q: Import without force over it succeeded", junk)
		}
		if got, _ := srv.Get(t, "net/terraform.tfstate"); string(got) != junk {
			t.Errorf("%q: object changed to %q", junk, got)
		}
		if keys := srv.List(t, "net/terraform.tfstate.tflock"); len(keys) != 0 {
			t.Errorf("%q: lock object left behind", junk)
		}
	}
	if err := s.Import(&statefile.File{State: backendtest.StateWith(1)}, true); err != nil {
		t.Fatalf("forced Import: %v", err)
	}
	if f, err := s.Read(); err != nil || backendtest.CountInstances(f.State) != 1 {
		t.Fatalf("after forced Import: %v, %v", f, err)
	}
}

// TestOpenErrors: a missing bucket and refused credentials are clear
// errors when the backend opens, and no secret is ever in one.
func TestOpenErrors(t *testing.T) {
	srv := tests3.Start(t)
	sseKey := "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes, base64
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"missing bucket", func(c *Config) { c.Bucket = "no-such-bucket" }, `"no-such-bucket" does not exist`},
		{"wrong secret", func(c *Config) { c.SecretKey = "wrong-secret-value-1234" }, "refused the credentials"},
		{"unknown key id", func(c *Config) { c.AccessKey = "AKIANOBODY" }, "refused the credentials"},
		{"bad sse key", func(c *Config) { c.Encrypt, c.SSECustomerKey = true, "c2VjcmV0LXRvby1zaG9ydA==" }, "256-bit key"},
		{"kms and sse-c", func(c *Config) { c.KMSKeyID, c.SSECustomerKey = "arn:aws:kms:k", sseKey }, "only one of"},
		{"no key", func(c *Config) { c.Key = "" }, `"key"`},
		{"key with slash", func(c *Config) { c.Key = "/a" }, `must not start or end`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(srv)
			tc.mod(&cfg)
			_, err := Open(context.Background(), cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open error = %v, want one saying %q", err, tc.want)
			}
			for _, secret := range []string{cfg.SecretKey, cfg.SSECustomerKey, sseKey} {
				if secret != "" && strings.Contains(err.Error(), secret) {
					t.Fatalf("error contains a secret: %v", err)
				}
			}
		})
	}
}

// TestNoCredentials: with no credentials anywhere, Open fails at once
// saying so (IMDS skipped as skip_metadata_api_check asks).
func TestNoCredentials(t *testing.T) {
	srv := tests3.Start(t)
	cfg := testConfig(srv)
	cfg.AccessKey, cfg.SecretKey = "", ""
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"} {
		t.Setenv(v, "")
	}
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	_, err := Open(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "get credentials") {
		t.Fatalf("Open without credentials = %v", err)
	}
}
