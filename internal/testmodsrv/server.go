package testmodsrv

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/cgi"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Server is a loopback HTTPS server of module packages. Its methods may
// be called while clients fetch.
type Server struct {
	// URL is https://127.0.0.1:PORT; Host is 127.0.0.1:PORT.
	URL, Host string
	// CAFile is the PEM of the CA clients must trust.
	CAFile string
	// Client trusts the CA.
	Client *http.Client

	dir string

	mu       sync.Mutex
	archives map[string][]byte            // path under /archive/ -> bytes
	registry map[string]map[string]string // ns/name/system -> version -> location
	requests map[string]int               // path -> count
	holds    Holds
	// Totals counts every request and byte served.
	Totals Totals
}

// Hold puts a Barrier of n in front of the paths under prefix (an
// archive, /archive/par-) and returns it.
func (s *Server) Hold(prefix string, n int) *Barrier {
	return s.holds.Add(NewBarrier(prefix, n))
}

// HoldUntil holds the GET requests for paths under prefix until ready
// is closed (at most ten seconds, then they go on).
func (s *Server) HoldUntil(prefix string, ready <-chan struct{}) {
	s.holds.Until(prefix, ready)
}

// Start starts a server that stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	s := &Server{
		dir:      t.TempDir(),
		archives: map[string][]byte{},
		registry: map[string]map[string]string{},
		requests: map[string]int{},
	}
	if err := os.MkdirAll(filepath.Join(s.dir, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := StartTLS(t, s.handler())
	s.URL, s.Host, s.Client, s.CAFile = srv.URL, srv.Host, srv.Client, srv.CAFile
	return s
}

// Env is what a client process needs to trust the server: Go programs
// read SSL_CERT_FILE, git reads GIT_SSL_CAINFO, the AWS SDK behind s3::
// reads AWS_CA_BUNDLE.
func (s *Server) Env() []string {
	return []string{"SSL_CERT_FILE=" + s.CAFile, "GIT_SSL_CAINFO=" + s.CAFile, "AWS_CA_BUNDLE=" + s.CAFile,
		"STORAGE_EMULATOR_HOST=" + s.URL}
}

// Requests returns how many GET requests the server answered for a
// path (go-getter also sends a HEAD before each download, not counted).
func (s *Server) Requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/git/", &cgi.Handler{
		Path: gitHTTPBackend(),
		Root: "/git",
		// git-http-backend's complaints (a repository that is not
		// there) are the client's to report.
		Stderr: io.Discard,
		Env:    []string{"GIT_PROJECT_ROOT=" + filepath.Join(s.dir, "git"), "GIT_HTTP_EXPORT_ALL=1"},
	})
	mux.HandleFunc("/archive/", s.serveArchive)
	mux.HandleFunc("/get/", func(w http.ResponseWriter, r *http.Request) {
		// X-Terraform-Get indirection: /get/NAME points at
		// /archive/NAME.tar.gz (by absolute URL: go-getter without detectors, as Terraform
		// runs it, reads no relative one).
		w.Header().Set("X-Terraform-Get", s.URL+"/archive/"+strings.TrimPrefix(r.URL.Path, "/get/")+".tar.gz")
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop", http.StatusFound)
	})
	mux.HandleFunc("/getloop", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Terraform-Get", s.URL+"/getloop")
	})
	mux.HandleFunc("/.well-known/terraform.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"modules.v1":"/v1/modules/"}`)
	})
	mux.HandleFunc("/v1/modules/", s.serveRegistry)
	// An S3 bucket named "bucket", path-style, whose objects are the
	// archives: GetObject of /bucket/NAME.zip (signatures not checked).
	mux.HandleFunc("/bucket/", func(w http.ResponseWriter, r *http.Request) {
		r.URL.Path = "/archive/" + strings.TrimPrefix(r.URL.Path, "/bucket/")
		s.serveArchive(w, r)
	})
	return s.Totals.Wrap(countRequests(s, s.holds.Wrap(mux)))
}

func countRequests(s *Server, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			s.mu.Lock()
			s.requests[r.URL.Path]++
			s.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// gitHTTPBackend finds git's smart HTTP CGI program.
func gitHTTPBackend() string {
	out, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		return "/usr/lib/git-core/git-http-backend"
	}
	return filepath.Join(strings.TrimSpace(string(out)), "git-http-backend")
}

// AddArchive serves files as /archive/NAME.tar.gz, /archive/NAME.zip and
// /archive/NAME-tgz (a tar.gz without an extension, for ?archive=).
func (s *Server) AddArchive(t testing.TB, name string, files map[string]string) {
	t.Helper()
	tgz, zipped := tarGz(t, files), zipOf(t, files)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.archives[name+".tar.gz"] = tgz
	s.archives[name+"-tgz"] = tgz
	s.archives[name+".zip"] = zipped
}

func (s *Server) serveArchive(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	b, ok := s.archives[strings.TrimPrefix(r.URL.Path, "/archive/")]
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(b)
}

// AddRegistryVersion lists version of the registry module ns/name/system
// with its package at location (a go-getter address, or a path on this
// server such as /archive/x.tar.gz).
func (s *Server) AddRegistryVersion(module, version, location string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.registry[module] == nil {
		s.registry[module] = map[string]string{}
	}
	s.registry[module][version] = location
}

func (s *Server) serveRegistry(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/v1/modules/"), "/")
	if len(parts) < 4 {
		http.NotFound(w, r)
		return
	}
	module := strings.Join(parts[:3], "/")
	s.mu.Lock()
	versions := maps.Clone(s.registry[module])
	s.mu.Unlock()
	switch {
	case versions == nil:
		http.NotFound(w, r)
	case len(parts) == 4 && parts[3] == "versions":
		var list []map[string]string
		for _, v := range slices.Sorted(maps.Keys(versions)) {
			list = append(list, map[string]string{"version": v})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"modules": []any{map[string]any{"versions": list}}})
	case len(parts) == 5 && parts[4] == "download" && versions[parts[3]] != "":
		w.Header().Set("X-Terraform-Get", versions[parts[3]])
		w.WriteHeader(http.StatusNoContent)
	default:
		http.NotFound(w, r)
	}
}

func tarGz(t testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		body := files[name]
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipOf(t testing.TB, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(files[name]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
