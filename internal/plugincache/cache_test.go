package plugincache

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestReadWrite: an entry reads back as written; a damaged or foreign
// file reads as absent (the caller rebuilds), and a later write repairs
// it.
func TestReadWrite(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "made", "on", "write"))
	if _, ok := c.Read("e"); ok {
		t.Fatal("an empty cache holds nothing")
	}
	data := bytes.Repeat([]byte("schema "), 1000)
	if err := c.Write("e", data); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Read("e"); !ok || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes (ok %v), want the %d written", len(got), ok, len(data))
	}
	path := filepath.Join(c.dir, "e")
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]struct {
		reason string
		file   []byte
	}{
		"truncated":   {"A write cut short (a full disk) must not be served.", whole[:len(whole)-10]},
		"flipped":     {"A changed byte must not be served.", append(append([]byte{}, whole[:len(whole)-1]...), whole[len(whole)-1]^1)},
		"foreign":     {"A file of another format must not be served.", []byte("{}")},
		"empty":       {"An empty file must not be served.", nil},
		"header only": {"A header without a body sum must not be served.", []byte(magic)},
	}
	for name, tc := range damage {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, ok := c.Read("e"); ok {
				t.Errorf("%s", tc.reason)
			}
			if err := c.Write("e", data); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.Read("e"); !ok || !bytes.Equal(got, data) {
				t.Errorf("a write after damage must repair the entry")
			}
		})
	}
	left, _ := filepath.Glob(filepath.Join(c.dir, "*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestConcurrentWriters: processes launched together (Terraform starts
// plugins in parallel) write the same entry at once; every reader sees a
// whole entry.
func TestConcurrentWriters(t *testing.T) {
	c := Open(t.TempDir())
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := bytes.Repeat([]byte{byte('a' + i)}, 1<<16)
			if err := c.Write("e", data); err != nil {
				t.Error(err)
			}
			if got, ok := c.Read("e"); !ok || len(got) != 1<<16 || strings.Trim(string(got), string(got[:1])) != "" {
				t.Errorf("a reader saw a partial or mixed entry (ok %v, %d bytes)", ok, len(got))
			}
		}()
	}
	wg.Wait()
}

// TestDisabled: without a directory nothing is kept and nothing fails.
func TestDisabled(t *testing.T) {
	var c Cache
	if err := c.Write("e", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Read("e"); ok {
		t.Error("the zero cache keeps nothing")
	}
}

// TestUnwritable: a cache directory that cannot be made is an error for
// the caller to ignore, never a panic.
func TestUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c := Open(filepath.Join(file, "sub"))
	if err := c.Write("e", []byte("x")); err == nil {
		t.Error("writing under a file must fail")
	}
	if _, ok := c.Read("e"); ok {
		t.Error("nothing can be read there")
	}
}

func TestDir(t *testing.T) {
	cases := map[string]struct {
		env  map[string]string
		want string
	}{
		"override": {map[string]string{"CAIRN_PLUGIN_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/c"},
		"off":      {map[string]string{"CAIRN_PLUGIN_CACHE": "off", "HOME": "/h"}, ""},
		"xdg":      {map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/cairn/plugins"},
		"home":     {map[string]string{"HOME": "/h"}, "/h/.cache/cairn/plugins"},
		"none":     {nil, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := Dir(func(k string) string { return tc.env[k] }); got != tc.want {
				t.Errorf("Dir = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestKey: keys differ when any input does, including where the parts
// split, and the build is part of every key.
func TestKey(t *testing.T) {
	if Key("ab", "c") == Key("a", "bc") {
		t.Error("the split between parts must count")
	}
	if Key("a") != Key("a") {
		t.Error("a key must be stable")
	}
	id := BuildID()
	if !strings.HasPrefix(id, "go:") && !strings.HasPrefix(id, "file:") {
		t.Errorf("BuildID %q: want the Go build ID (or the file's identity)", id)
	}
	if runtime.GOOS == "linux" && !strings.HasPrefix(id, "go:") {
		t.Errorf("BuildID %q: a Go ELF executable carries its build ID", id)
	}
}

// TestPrune: the most recently written entries of a kind stay, older
// ones and abandoned temporary files go, and entries of another kind are
// untouched.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	c := Open(dir)
	base := time.Now().Add(-48 * time.Hour)
	for i, name := range []string{"a-1.pb", "a-2.pb", "a-3.pb", "a-4.pb", "b-1.json"} {
		if err := c.Write(name, []byte(name)); err != nil {
			t.Fatal(err)
		}
		mod := base.Add(time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, name), mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	stale, fresh := filepath.Join(dir, "a-9.pb.123.tmp"), filepath.Join(dir, "a-8.pb.456.tmp")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(stale, base, base); err != nil {
		t.Fatal(err)
	}
	c.Prune("a-*.pb", 2)
	got, _ := filepath.Glob(filepath.Join(dir, "*"))
	for i := range got {
		got[i] = filepath.Base(got[i])
	}
	want := []string{"a-3.pb", "a-4.pb", "a-8.pb.456.tmp", "b-1.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after pruning (-want +got):\n%s", diff)
	}
	Cache{}.Prune("*", 0) // the zero cache has nothing to prune
}
