package getproviders_test

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/testprovsrv"
)

// startRegistry serves hashicorp/random 3.8.0 and 3.9.0 (signed, for
// this platform plus two stand-in platforms), one faulty 3.9.0 each of
// tampered/, wrongkey/ and unsigned/random, and otherplat/random 3.8.0
// for this platform with 3.9.0 for plan9_386 only. It returns the server
// and the zip of hashicorp/random 3.9.0 for this platform.
func startRegistry(t *testing.T) (*testprovsrv.Server, []byte) {
	t.Helper()
	srv := testprovsrv.Start(t)
	bin := filepath.Join(t.TempDir(), "plugin")
	writeFile(t, bin, "#!/bin/sh\necho plugin\n", 0o755)
	plat := getproviders.CurrentPlatform().String()
	others := []string{"darwin_arm64", "windows_amd64"}
	srv.Add(t, testprovsrv.Release{Namespace: "hashicorp", Type: "random", Version: "3.8.0", Binary: bin, Platform: plat, Others: others})
	zip := srv.Add(t, testprovsrv.Release{Namespace: "hashicorp", Type: "random", Version: "3.9.0", Binary: bin, Platform: plat, Others: others})
	for ns, f := range map[string]testprovsrv.Fault{"tampered": testprovsrv.Tampered, "wrongkey": testprovsrv.WrongKey, "unsigned": testprovsrv.Unsigned} {
		srv.Add(t, testprovsrv.Release{Namespace: ns, Type: "random", Version: "3.9.0", Binary: bin, Platform: plat, Others: others, Fault: f})
	}
	srv.Add(t, testprovsrv.Release{Namespace: "otherplat", Type: "random", Version: "3.8.0", Binary: bin, Platform: plat})
	srv.Add(t, testprovsrv.Release{Namespace: "otherplat", Type: "random", Version: "3.9.0", Binary: bin, Platform: "plan9_386"})
	return srv, zip
}

func remoteSource(srv *testprovsrv.Server, m getproviders.Method) getproviders.Source {
	return getproviders.Source{Methods: []getproviders.Method{m}, Platform: getproviders.CurrentPlatform(),
		HTTP: &getproviders.HTTP{Client: srv.Client, Backoff: time.Millisecond}}
}

// install runs the query, selection and installation init runs.
func install(t *testing.T, src getproviders.Source, in getproviders.Installer, p addrs.Provider, constraint string, accept func(string) bool) (getproviders.Installed, error) {
	t.Helper()
	cs, err := getproviders.ParseConstraints(constraint)
	if err != nil {
		t.Fatal(err)
	}
	avail, err := src.Available(p)
	if err != nil {
		return getproviders.Installed{}, err
	}
	pkg, err := getproviders.Select(p, avail, cs, nil, false)
	if err != nil {
		return getproviders.Installed{}, err
	}
	return in.Install(pkg, accept)
}

func TestRegistryInstall(t *testing.T) {
	srv, zip := startRegistry(t)
	sum := sha256.Sum256(zip)
	zh := "zh:" + hex.EncodeToString(sum[:])
	direct := getproviders.Method{Kind: getproviders.Direct}
	mirror := getproviders.Method{Kind: getproviders.NetworkMirror, URL: srv.MirrorURL}
	tests := map[string]struct {
		reason     string
		method     getproviders.Method
		namespace  string
		constraint string
		accept     func(string) bool
		wantErr    string
		wantHashes int // with the h1: hash
	}{
		"newest":          {reason: "the newest signed release, h1: plus every platform's zh:", method: direct, namespace: "hashicorp", constraint: ">= 3.0", wantHashes: 4},
		"constrained":     {reason: "a constraint picks the older release", method: direct, namespace: "hashicorp", constraint: "~> 3.8.0", wantHashes: 4},
		"locked zh":       {reason: "a lock holding only the zip's zh: accepts it", method: direct, namespace: "hashicorp", constraint: "3.9.0", accept: func(h string) bool { return h == zh }, wantHashes: 4},
		"lock mismatch":   {reason: "a lock with other hashes refuses the download", method: direct, namespace: "hashicorp", constraint: "3.9.0", accept: func(string) bool { return false }, wantErr: "doesn't match any of the checksums previously recorded in the dependency lock file"},
		"no match":        {reason: "Terraform's words, then what is there", method: direct, namespace: "hashicorp", constraint: ">= 4.0", wantErr: "no available releases match the given constraints >= 4.0.0 (available versions: 3.9.0, 3.8.0)"},
		"tampered":        {reason: "the zip is not the one the signed sums name", method: direct, namespace: "tampered", constraint: "3.9.0", wantErr: "archive has incorrect checksum"},
		"wrong key":       {reason: "a signature by a key the registry does not list", method: direct, namespace: "wrongkey", constraint: "3.9.0", wantErr: "authentication signature from unknown issuer"},
		"unsigned":        {reason: "no signature URL", method: direct, namespace: "unsigned", constraint: "3.9.0", wantErr: "the release is unsigned"},
		"other platform":  {reason: "the newest is offered and refused, as Terraform refuses it, not silently skipped", method: direct, namespace: "otherplat", constraint: ">= 3.0", wantErr: "is not available for"},
		"older platform":  {reason: "a constraint reaching the release with this platform", method: direct, namespace: "otherplat", constraint: "< 3.9.0", wantHashes: 2},
		"unknown":         {reason: "the registry has no such provider", method: direct, namespace: "nobody", constraint: "3.9.0", wantErr: "does not have a provider named"},
		"mirror":          {reason: "checked against the mirror's list, but only h1: is recorded, as by Terraform 1.5.7", method: mirror, namespace: "hashicorp", constraint: ">= 3.0", wantHashes: 1},
		"mirror tampered": {reason: "the mirror lists the true hash, serves another zip", method: mirror, namespace: "tampered", constraint: "3.9.0", wantErr: "does not match any of the checksums the mirror lists"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			target := t.TempDir()
			p := addrs.Provider{Hostname: srv.Host, Namespace: tc.namespace, Type: "random"}
			inst, err := install(t, remoteSource(srv, tc.method), getproviders.Installer{TargetDir: target}, p, tc.constraint, tc.accept)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s: got %v, want %q", tc.reason, err, tc.wantErr)
				}
				if entries, _ := os.ReadDir(target); len(entries) != 0 {
					t.Errorf("%s: something was installed: %v", tc.reason, entries)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if len(inst.Hashes) != tc.wantHashes || !strings.HasPrefix(inst.Hashes[0], "h1:") {
				t.Errorf("%s: hashes %v, want %d with h1: first", tc.reason, inst.Hashes, tc.wantHashes)
			}
			if _, err := getproviders.ExecutableFile(p, inst.Dir); err != nil {
				t.Errorf("%s: %v", tc.reason, err)
			}
		})
	}
}

func TestRegistryRetries(t *testing.T) {
	srv, _ := startRegistry(t)
	p := addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"}
	src := remoteSource(srv, getproviders.Method{Kind: getproviders.Direct})
	path := "/v1/providers/hashicorp/random/versions"
	srv.FailNext(path, 2)
	if _, err := src.Available(p); err != nil {
		t.Fatalf("two 503s then an answer: %v", err)
	}
	if got := srv.Requests(path); got != 3 {
		t.Errorf("requests = %d, want 3", got)
	}
	srv.FailNext(path, 3)
	if _, err := src.Available(p); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("three 503s: got %v, want the 503", err)
	}
}

func TestRegistryUnreachable(t *testing.T) {
	srv, _ := startRegistry(t)
	srv.Close()
	p := addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"}
	_, err := remoteSource(srv, getproviders.Method{Kind: getproviders.Direct}).Available(p)
	if err == nil || !strings.Contains(err.Error(), "could not connect to "+srv.Host) {
		t.Fatalf("got %v, want could not connect", err)
	}
}

// TestRegistryPluginCache: a download goes into the cache unpacked, the
// working directory links to it, and a second install reuses it.
func TestRegistryPluginCache(t *testing.T) {
	srv, _ := startRegistry(t)
	p := addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"}
	cache, target := t.TempDir(), t.TempDir()
	in := getproviders.Installer{TargetDir: target, CacheDir: cache}
	inst, err := install(t, remoteSource(srv, getproviders.Method{Kind: getproviders.Direct}), in, p, "3.9.0", nil)
	if err != nil {
		t.Fatal(err)
	}
	link, err := os.Readlink(inst.Dir)
	if err != nil {
		t.Fatalf("target is not a link into the cache: %v", err)
	}
	want := filepath.Join(cache, srv.Host, "hashicorp", "random", "3.9.0", getproviders.CurrentPlatform().String())
	if link != want {
		t.Errorf("link = %s, want %s", link, want)
	}
	if _, err := getproviders.ExecutableFile(p, want); err != nil {
		t.Error(err)
	}
}

func TestCheckSignatureErrorsAreTyped(t *testing.T) {
	var mismatch *getproviders.HashMismatchError
	srv, _ := startRegistry(t)
	p := addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"}
	_, err := install(t, remoteSource(srv, getproviders.Method{Kind: getproviders.Direct}), getproviders.Installer{TargetDir: t.TempDir()}, p, "3.9.0", func(string) bool { return false })
	if !errors.As(err, &mismatch) {
		t.Fatalf("got %T %v, want *HashMismatchError", err, err)
	}
}

// TestRegistryToken: a registry that requires a token gets it on its API
// (discovery, versions, download document) and the release files never
// see it (the server refuses a file request carrying one).
func TestRegistryToken(t *testing.T) {
	srv, _ := startRegistry(t)
	srv.RequireToken("hashicorp", "s3cret")
	p := addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"}
	tests := map[string]struct {
		reason  string
		token   func(string) string
		wantErr string
	}{
		"token":       {reason: "the host's token is sent to its API only", token: func(h string) string { return map[string]string{srv.Host: "s3cret"}[h] }},
		"no token":    {reason: "the registry refuses", wantErr: "401 Unauthorized"},
		"wrong token": {reason: "the registry refuses, and the token is not in the message", token: func(string) string { return "wrong-token-value" }, wantErr: "401 Unauthorized"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src := remoteSource(srv, getproviders.Method{Kind: getproviders.Direct})
			src.HTTP.Token = tc.token
			_, err := install(t, src, getproviders.Installer{TargetDir: t.TempDir()}, p, "3.9.0", nil)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("%s: %v", tc.reason, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || strings.Contains(err.Error(), "wrong-token-value") {
				t.Fatalf("%s: got %v, want %q without the token", tc.reason, err, tc.wantErr)
			}
		})
	}
}

// TestRegistryUntrustedNotRetried: a certificate the client does not
// trust fails at once; only transient failures are tried again.
func TestRegistryUntrustedNotRetried(t *testing.T) {
	srv, _ := startRegistry(t)
	var dials atomic.Int32
	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: x509.NewCertPool()},
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}}
	src := getproviders.Source{Methods: []getproviders.Method{{Kind: getproviders.Direct}}, Platform: getproviders.CurrentPlatform(),
		HTTP: &getproviders.HTTP{Client: client, Backoff: time.Millisecond}}
	_, err := src.Available(addrs.Provider{Hostname: srv.Host, Namespace: "hashicorp", Type: "random"})
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("got %v, want a certificate error", err)
	}
	if n := dials.Load(); n != 1 {
		t.Errorf("dialled %d times, want 1", n)
	}
}
