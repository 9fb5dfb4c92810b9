package testkube

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindBinaries(t *testing.T) {
	dir := t.TempDir()
	exe := func(rel string) string {
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return path
	}
	apiserver := exe("bin/kube-apiserver")
	etcd := exe("bin/etcd")
	cached := exe("cache/cairn/tools/kube-apiserver-v" + APIServerVersion + "/kube-apiserver")
	homeCached := exe("home/.cache/cairn/tools/kube-apiserver-v" + APIServerVersion + "/kube-apiserver")
	notExec := filepath.Join(dir, "bin/not-exec")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	onPath := func(name string) (string, error) { return etcd, nil }
	notOnPath := func(name string) (string, error) { return "", errors.New("not found") }

	cases := map[string]struct {
		reason   string
		env      map[string]string
		lookPath func(string) (string, error)
		want     Binaries
		wantErr  error
	}{
		"FromEnvironment": {
			reason:   "CAIRN_KUBE_APISERVER and CAIRN_ETCD win over the cache and PATH",
			env:      map[string]string{"CAIRN_KUBE_APISERVER": apiserver, "CAIRN_ETCD": etcd, "XDG_CACHE_HOME": filepath.Join(dir, "cache")},
			lookPath: notOnPath,
			want:     Binaries{APIServer: apiserver, Etcd: etcd},
		},
		"FromCacheAndPath": {
			reason:   "without the variables, the install script's cache and etcd on PATH",
			env:      map[string]string{"XDG_CACHE_HOME": filepath.Join(dir, "cache")},
			lookPath: onPath,
			want:     Binaries{APIServer: cached, Etcd: etcd},
		},
		"HomeCache": {
			reason:   "without XDG_CACHE_HOME the cache is under ~/.cache",
			env:      map[string]string{"HOME": filepath.Join(dir, "home")},
			lookPath: onPath,
			want:     Binaries{APIServer: homeCached, Etcd: etcd},
		},
		"APIServerNotExecutable": {
			reason:   "a file that cannot be run is as good as missing",
			env:      map[string]string{"CAIRN_KUBE_APISERVER": notExec, "CAIRN_ETCD": etcd},
			lookPath: onPath,
			wantErr:  ErrNotInstalled,
		},
		"EtcdNotOnPath": {
			reason:   "etcd is looked up on PATH when CAIRN_ETCD is unset",
			env:      map[string]string{"CAIRN_KUBE_APISERVER": apiserver},
			lookPath: notOnPath,
			wantErr:  ErrNotInstalled,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := findBinaries(func(k string) string { return tc.env[k] }, tc.lookPath)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("%s\nfindBinaries(): error %v, want %v", tc.reason, err, tc.wantErr)
			}
			if tc.wantErr != nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nfindBinaries(): -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
