package testprovsrv

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"

	"github.com/cairn-iac/cairn/internal/testmodsrv"
)

// Fault makes a release wrong on purpose.
type Fault int

const (
	// Good is a correctly signed release.
	Good Fault = iota
	// Tampered serves a zip other than the one SHA256SUMS and shasum name.
	Tampered
	// WrongKey signs SHA256SUMS with a key the registry does not list.
	WrongKey
	// Unsigned leaves shasums_signature_url out of the download document.
	Unsigned
)

// Release is one provider version: Binary (a plugin executable) zipped
// for Platform, and a small stand-in zip for each of Others, all listed
// in one signed SHA256SUMS as real releases are.
type Release struct {
	Namespace, Type, Version string
	Binary                   string
	Platform                 string   // OS_ARCH of the real zip
	Others                   []string // OS_ARCH of stand-in zips
	Fault                    Fault
}

// Server is a loopback provider registry and network mirror (under
// /mirror/). Its methods may be called while clients fetch.
type Server struct {
	// URL is https://127.0.0.1:PORT; Host is 127.0.0.1:PORT.
	URL, Host string
	// MirrorURL is the network mirror's base URL (ends in "/").
	MirrorURL string
	// CAFile is the PEM of the CA clients must trust.
	CAFile string
	// Client trusts the CA.
	Client *http.Client
	// KeyArmor is the signing key's public key, ASCII-armored.
	KeyArmor string

	key, otherKey *openpgp.Entity
	srv           *testmodsrv.TLSServer

	mu        sync.Mutex
	files     map[string][]byte            // path -> body
	localRoot string                       // ServeLocal's directory
	releases  map[string][]Release         // ns/type -> releases
	fail      map[string]int               // path -> 503 answers still to give
	requests  map[string]int               // path -> count
	sums      map[string]map[string]string // ns/type/version -> os_arch -> zh hex
	tokens    map[string]string            // namespace -> bearer token its API requires
	holds     testmodsrv.Holds
	// Totals counts every request and byte served.
	Totals testmodsrv.Totals
}

// Hold puts a barrier of n in front of the release files of namespace
// (/files/NAMESPACE/...): their downloads wait until n are in flight at
// once, which proves a client downloads in parallel.
func (s *Server) Hold(namespace string, n int) *testmodsrv.Barrier {
	return s.holds.Add(testmodsrv.NewBarrier("/files/"+namespace+"/", n))
}

// RequireToken makes the registry API and mirror documents of a
// namespace answer 401 unless the request carries "Authorization:
// Bearer TOKEN".
func (s *Server) RequireToken(namespace, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[namespace] = token
}

// authorized reports whether r may read namespace's documents.
func (s *Server) authorized(r *http.Request, namespace string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	want, ok := s.tokens[namespace]
	return !ok || r.Header.Get("Authorization") == "Bearer "+want
}

// Start starts a server that stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{files: map[string][]byte{}, releases: map[string][]Release{},
		fail: map[string]int{}, requests: map[string]int{}, sums: map[string]map[string]string{},
		tokens: map[string]string{}}
	s.key, s.otherKey = newKey(t, "cairn test signer"), newKey(t, "someone else")
	s.KeyArmor = armored(t, s.key)
	s.srv = testmodsrv.StartTLS(t, s.Totals.Wrap(s.holds.Wrap(http.HandlerFunc(s.serve))))
	s.URL, s.Host, s.Client, s.CAFile = s.srv.URL, s.srv.Host, s.srv.Client, s.srv.CAFile
	s.MirrorURL = s.URL + "/mirror/"
	return s
}

// Close stops the server early: an unreachable registry.
func (s *Server) Close() { s.srv.Close() }

// Env is what a client process needs to trust the server.
func (s *Server) Env() []string { return []string{"SSL_CERT_FILE=" + s.CAFile} }

// FailNext makes the next n requests for path answer 503.
func (s *Server) FailNext(path string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[path] = n
}

// Requests returns how many requests path received.
func (s *Server) Requests(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}

// ServeLocal lets the server answer /local/ABS_PATH with the file at
// ABS_PATH when it is under root, so a test can publish a directory it
// wrote (a `providers mirror` output) as a network mirror at
// URL+"/local"+DIR+"/".
func (s *Server) ServeLocal(root string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.localRoot = filepath.Clean(root)
}

// ZipName is a release zip's file name, as HashiCorp names them.
func ZipName(typ, version, platform string) string {
	return fmt.Sprintf("terraform-provider-%s_%s_%s.zip", typ, version, platform)
}

// ZipPath is where the real zip of r is served.
func (r Release) ZipPath() string {
	return fmt.Sprintf("/files/%s/%s/%s/%s", r.Namespace, r.Type, r.Version, ZipName(r.Type, r.Version, r.Platform))
}

// Add publishes a release; it returns the zip's bytes as signed.
func (s *Server) Add(t testing.TB, r Release) []byte {
	t.Helper()
	bin, err := os.ReadFile(r.Binary)
	if err != nil {
		t.Fatal(err)
	}
	exe := fmt.Sprintf("terraform-provider-%s_v%s_x5", r.Type, r.Version)
	zips := map[string][]byte{r.Platform: zipOf(t, exe, bin)}
	for _, o := range r.Others {
		zips[o] = zipOf(t, exe, []byte("#!/bin/sh\necho "+o+"\n"))
	}
	dir := fmt.Sprintf("/files/%s/%s/%s/", r.Namespace, r.Type, r.Version)
	var sums bytes.Buffer
	plats := make([]string, 0, len(zips))
	for p := range zips {
		plats = append(plats, p)
	}
	sort.Strings(plats)
	hexes := map[string]string{}
	for _, p := range plats {
		sum := sha256.Sum256(zips[p])
		hexes[p] = fmt.Sprintf("%x", sum)
		fmt.Fprintf(&sums, "%x  %s\n", sum, ZipName(r.Type, r.Version, p))
	}
	signer := s.key
	if r.Fault == WrongKey {
		signer = s.otherKey
	}
	var sig bytes.Buffer
	if err := openpgp.DetachSign(&sig, signer, bytes.NewReader(sums.Bytes()), nil); err != nil {
		t.Fatal(err)
	}
	sumsName := fmt.Sprintf("terraform-provider-%s_%s_SHA256SUMS", r.Type, r.Version)
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, z := range zips {
		s.files[dir+ZipName(r.Type, r.Version, p)] = z
	}
	if r.Fault == Tampered {
		s.files[r.ZipPath()] = zipOf(t, exe, append(bin, 0))
	}
	s.files[dir+sumsName] = sums.Bytes()
	s.files[dir+sumsName+".sig"] = sig.Bytes()
	key := r.Namespace + "/" + r.Type
	s.releases[key] = append(s.releases[key], r)
	s.sums[key+"/"+r.Version] = hexes
	return zips[r.Platform]
}

func zipOf(t testing.TB, name string, body []byte) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	h := &zip.FileHeader{Name: name, Method: zip.Deflate}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err == nil {
		_, err = w.Write(body)
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func newKey(t testing.TB, name string) *openpgp.Entity {
	e, err := openpgp.NewEntity(name, "", strings.ReplaceAll(name, " ", ".")+"@example.com",
		&packet.Config{Algorithm: packet.PubKeyAlgoRSA, RSABits: 2048})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func armored(t testing.TB, e *openpgp.Entity) string {
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err == nil {
		err = e.Serialize(w)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
