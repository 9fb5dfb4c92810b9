package modinstall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/testmodsrv"
)

// moduleFiles is a small module package with a submodule.
var moduleFiles = map[string]string{
	"main.tf":     "variable \"name\" { type = string }\nresource \"terraform_data\" \"x\" { input = var.name }\n",
	"sub/main.tf": "resource \"terraform_data\" \"y\" {}\n",
}

// startServer starts the loopback module server with a git repository
// (tag v1, then a later commit on main), archives and a registry module,
// and makes git trust its CA.
func startServer(t testing.TB) (*testmodsrv.Server, string) {
	t.Helper()
	srv := testmodsrv.Start(t)
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	repo := srv.AddGitCommit(t, "net", moduleFiles, "v1")
	srv.AddGitCommit(t, "net", map[string]string{"main.tf": "# v2\n"}, "v2")
	srv.AddArchive(t, "net", moduleFiles)
	srv.AddRegistryVersion("org/net/aws", "1.0.0", srv.URL+"/archive/net.tar.gz")
	srv.AddRegistryVersion("org/net/aws", "1.1.0", srv.URL+"/archive/net.zip")
	srv.AddRegistryVersion("org/net/aws", "2.0.0-beta1", srv.URL+"/archive/net.zip")
	return srv, repo
}

// TestFetch fetches each kind of source from real loopback servers (git
// smart HTTP over HTTPS, archives, X-Terraform-Get, the registry
// protocol) and checks the module directory returned and its files.
func TestFetch(t *testing.T) {
	srv, repo := startServer(t)
	host := srv.Host
	cases := map[string]struct {
		reason       string
		source       string
		version      string
		wantSubdir   string
		wantFile     string // a file that must be in the module directory
		wantContent  string
		wantSelected string
	}{
		"GitRef": {
			reason: "a tag is checked out", source: "git::" + repo + "?ref=v1",
			wantFile: "main.tf", wantContent: "terraform_data",
		},
		"GitDefaultBranch": {
			reason: "without ref the default branch's head", source: "git::" + repo,
			wantFile: "main.tf", wantContent: "# v2",
		},
		"GitShallowSubdir": {
			reason: "?depth=1 clones shallowly; //sub is the module's directory", source: "git::" + repo + "//sub?ref=v1&depth=1",
			wantSubdir: "sub", wantFile: "main.tf", wantContent: "terraform_data",
		},
		"TarGz": {
			reason: "an archive URL is unpacked", source: srv.URL + "/archive/net.tar.gz",
			wantFile: "main.tf", wantContent: "terraform_data",
		},
		"ZipSubdir": {
			reason: "a zip with a subdirectory", source: srv.URL + "/archive/net.zip//sub",
			wantSubdir: "sub", wantFile: "main.tf", wantContent: "terraform_data",
		},
		"ArchiveParam": {
			reason: "?archive= names the format of a URL without an extension", source: srv.URL + "/archive/net-tgz?archive=tar.gz",
			wantFile: "main.tf", wantContent: "terraform_data",
		},
		"XTerraformGet": {
			reason: "X-Terraform-Get points at the package", source: srv.URL + "/get/net",
			wantFile: "main.tf", wantContent: "terraform_data",
		},
		"S3Archive": {
			reason:   "an s3:: object on an S3-compatible endpoint (path style, static keys)",
			source:   "s3::" + srv.URL + "/bucket/net.zip?aws_access_key_id=AKIDTEST&aws_access_key_secret=secret&region=us-east-1",
			wantFile: "main.tf", wantContent: "terraform_data",
		},
		"GCSArchive": {
			reason:   "a gcs:: object, read from the server as a storage emulator (STORAGE_EMULATOR_HOST)",
			source:   "gcs::https://www.googleapis.com/storage/v1/bucket/net.zip",
			wantFile: "main.tf", wantContent: "terraform_data",
		},
		"Registry": {
			reason: "the newest version the constraint allows, not a pre-release", source: host + "/org/net/aws", version: "~> 1.0",
			wantFile: "main.tf", wantContent: "terraform_data", wantSelected: "1.1.0",
		},
		"RegistrySubdir": {
			reason: "a registry address's subdirectory", source: host + "/org/net/aws//sub", version: "1.0.0",
			wantSubdir: "sub", wantFile: "main.tf", wantContent: "terraform_data", wantSelected: "1.0.0",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "pkg")
			f := NewFetcher(WithHTTPClient(srv.Client))
			dir, selected, err := f.Fetch(context.Background(), tc.source, tc.version, dst)
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if want := filepath.Join(dst, tc.wantSubdir); dir != want {
				t.Errorf("%s: dir = %s, want %s", tc.reason, dir, want)
			}
			if selected != tc.wantSelected {
				t.Errorf("%s: selected = %q, want %q", tc.reason, selected, tc.wantSelected)
			}
			b, err := os.ReadFile(filepath.Join(dir, tc.wantFile))
			if err != nil || !strings.Contains(string(b), tc.wantContent) {
				t.Errorf("%s: %s = %q, %v; want it to contain %q", tc.reason, tc.wantFile, b, err, tc.wantContent)
			}
		})
	}
}

// TestFetchBadInput checks each bad source is a clear error and leaves
// nothing at the destination.
func TestFetchBadInput(t *testing.T) {
	srv, repo := startServer(t)
	cases := map[string]struct {
		reason  string
		source  string
		version string
		wantErr string
	}{
		"MissingRef":     {reason: "a git ref that does not exist", source: "git::" + repo + "?ref=nope", wantErr: "nope"},
		"MissingRepo":    {reason: "a repository that does not exist", source: "git::" + srv.URL + "/git/none.git", wantErr: "none.git"},
		"RedirectLoop":   {reason: "an HTTP redirect loop", source: srv.URL + "/loop", wantErr: "stopped after 10 redirects"},
		"GetLoop":        {reason: "an X-Terraform-Get loop", source: srv.URL + "/getloop", wantErr: "too many X-Terraform-Get redirects"},
		"SubdirEscape":   {reason: "a subdirectory leaving the package", source: "git::" + repo + "//../x", wantErr: "leads outside of the module package"},
		"SubdirMissing":  {reason: "a subdirectory the package lacks", source: srv.URL + "/archive/net.zip//nothere", wantErr: "nothere"},
		"VersionRemote":  {reason: "a version on a non-registry source", source: "git::" + repo, version: "1.0.0", wantErr: "doesn't come from a module registry"},
		"NoSuchVersion":  {reason: "no version meets the constraint", source: srv.Host + "/org/net/aws", version: ">= 3.0", wantErr: "Unresolvable module version constraint"},
		"NoSuchModule":   {reason: "the registry does not know the module", source: srv.Host + "/org/none/aws", wantErr: "Module not found"},
		"LocalRefused":   {reason: "a local path has nothing to fetch", source: "./x", wantErr: "local path"},
		"MissingArchive": {reason: "an archive that is not there", source: srv.URL + "/archive/none.zip", wantErr: "404"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "pkg")
			_, _, err := NewFetcher(WithHTTPClient(srv.Client)).Fetch(context.Background(), tc.source, tc.version, dst)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("%s: error = %v, want one containing %q", tc.reason, err, tc.wantErr)
			}
			if _, err := os.Stat(dst); !os.IsNotExist(err) {
				t.Errorf("%s: %s was left behind (%v)", tc.reason, dst, err)
			}
		})
	}
}

// TestRedact checks credentials in addresses never reach a message.
func TestRedact(t *testing.T) {
	cases := map[string]string{
		"error downloading 'https://user:s3cret@example.com/x.git': exit status 128":                     "error downloading 'https://example.com/x.git': exit status 128",
		"s3::https://h/b/k.zip?aws_access_key_id=AKID&aws_access_key_secret=s3cret&aws_access_token=t0k": "s3::https://h/b/k.zip?aws_access_key_id=AKID&aws_access_key_secret=REDACTED&aws_access_token=REDACTED",
		"git::https://example.com/x.git?ref=v1":                                                          "git::https://example.com/x.git?ref=v1",
	}
	for in, want := range cases {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cleanGetterError(errString("Get 'https://u:s3cret@h/x'")).Error(); strings.Contains(got, "s3cret") {
		t.Errorf("cleaned error = %q", got)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// TestFetchOncePerPackage checks a Fetcher downloads a package once and
// copies it for a second destination.
func TestFetchOncePerPackage(t *testing.T) {
	srv, _ := startServer(t)
	f := NewFetcher(WithHTTPClient(srv.Client))
	before := srv.Requests("/archive/net.tar.gz")
	for _, dst := range []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")} {
		dir, _, err := f.Fetch(context.Background(), srv.URL+"/archive/net.tar.gz//sub", "", dst)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(dir, "main.tf")); err != nil {
			t.Fatalf("%s: %v", dst, err)
		}
	}
	if n := srv.Requests("/archive/net.tar.gz") - before; n != 1 {
		t.Errorf("two fetches of one package made %d GETs, want 1", n)
	}
}

// TestFetchHg fetches a Mercurial repository at a tag (go-getter's hg
// getter takes ?rev=, not git's ?ref=) from "hg serve" on loopback
// (skipped without hg).
func TestFetchHg(t *testing.T) {
	url := testmodsrv.AddHgRepo(t, moduleFiles, "v1")
	dst := filepath.Join(t.TempDir(), "pkg")
	dir, _, err := NewFetcher().Fetch(context.Background(), "hg::"+strings.TrimSuffix(url, "/")+"//sub?rev=v1", "", dst)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "main.tf")); err != nil || !strings.Contains(string(b), "terraform_data") {
		t.Fatalf("%s/main.tf = %q, %v", dir, b, err)
	}
	if dir != filepath.Join(dst, "sub") {
		t.Errorf("dir = %s, want %s/sub", dir, dst)
	}
}

// TestFetchConcurrent fetches from one Fetcher in parallel, as a front
// end installing several modules at once would (run with -race).
func TestFetchConcurrent(t *testing.T) {
	srv, repo := startServer(t)
	f := NewFetcher(WithHTTPClient(srv.Client))
	sources := []string{srv.URL + "/archive/net.tar.gz", srv.URL + "/archive/net.zip//sub", "git::" + repo + "?ref=v1", srv.URL + "/archive/net.tar.gz//sub"}
	errs := make(chan error, len(sources))
	root := t.TempDir()
	for i, src := range sources {
		go func() {
			dir, _, err := f.Fetch(context.Background(), src, "", filepath.Join(root, fmt.Sprint(i)))
			if err == nil {
				_, err = os.Stat(filepath.Join(dir, "main.tf"))
			}
			errs <- err
		}()
	}
	for range sources {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
