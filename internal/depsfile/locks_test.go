package depsfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// The files under testdata were written by the real Terraform 1.5.7 "init"
// (see docs/design/provider-installation.md); reading then writing them must
// give the same bytes.
func TestRoundTripTerraformFiles(t *testing.T) {
	for _, name := range []string{"two-providers.terraform.lock.hcl", "merged-constraints.terraform.lock.hcl", "no-constraints.terraform.lock.hcl"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			locks, diags := Parse(src, name)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(string(src), string(locks.Bytes())); diff != "" {
				t.Errorf("-want +got\n%s", diff)
			}
		})
	}
}

// Building locks in code, constraints written loosely and hashes unsorted,
// gives Terraform's file.
func TestBytesMatchesTerraform(t *testing.T) {
	want, err := os.ReadFile("testdata/two-providers.terraform.lock.hcl")
	if err != nil {
		t.Fatal(err)
	}
	locks := NewLocks()
	set := func(addr, v, cs, hash string) {
		p, err := addrs.ParseProviderSource(addr)
		if err != nil {
			t.Fatal(err)
		}
		c, err := getproviders.ParseConstraints(cs)
		if err != nil {
			t.Fatal(err)
		}
		locks.SetProvider(p, version.Must(version.NewVersion(v)), c, []string{hash, hash})
	}
	set("example.com/test/foo", "1.3.0", "~> 1.2", "h1:zdgCMKBMsXdb1kCjAfRuYG+Cfy2xmsuURrEayLSeOOA=")
	set("example.com/test/bar", "0.5.0", ">= 0.1, < 2.0.0", "h1:2CLwys3ohFKrY1aozMRrKU37k9HgTXBXFSw+J2OckDw=")
	if diff := cmp.Diff(string(want), string(locks.Bytes())); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	locks, diags := Load(path)
	if diags.HasErrors() || len(locks.Providers()) != 0 {
		t.Fatalf("missing file: %v %v", locks.Providers(), diags)
	}
	p := addrs.Provider{Hostname: "example.com", Namespace: "test", Type: "foo"}
	locks.SetProvider(p, version.Must(version.NewVersion("1.0.0")), nil, []string{"h1:b", "h1:a"})
	if diags := Save(locks, path); diags.HasErrors() {
		t.Fatal(diags)
	}
	got, diags := Load(path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	lock := got.Provider(p)
	if lock == nil || !lock.Accepts("h1:a") || lock.Accepts("h1:c") {
		t.Fatalf("lock after reload: %+v", lock)
	}
	if diff := cmp.Diff([]string{"h1:a", "h1:b"}, lock.Hashes); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
}

func TestParseDiagnostics(t *testing.T) {
	tests := map[string]struct {
		reason  string
		src     string
		summary string
		start   hcl.Pos
	}{
		"syntax": {
			reason: "a broken file is reported where it breaks", src: "provider \"a/b/c\" {\n  version = \n}\n",
			summary: "Invalid expression", start: hcl.Pos{Line: 2, Column: 13, Byte: 31},
		},
		"short address": {
			reason: "addresses must be fully qualified", src: "provider \"hashicorp/aws\" {\n  version = \"1.0.0\"\n}\n",
			summary: "Invalid provider source address", start: hcl.Pos{Line: 1, Column: 10, Byte: 9},
		},
		"upper case address": {
			reason: "addresses must be normalized", src: "provider \"example.com/Test/foo\" {\n  version = \"1.0.0\"\n}\n",
			summary: "Non-normalized provider source address", start: hcl.Pos{Line: 1, Column: 10, Byte: 9},
		},
		"missing version": {
			reason: "version is required", src: "provider \"example.com/test/foo\" {\n}\n",
			summary: "Missing required argument", start: hcl.Pos{Line: 1, Column: 33, Byte: 32},
		},
		"short version": {
			reason: "versions must be normalized", src: "provider \"example.com/test/foo\" {\n  version = \"1.0\"\n}\n",
			summary: "Invalid provider version number", start: hcl.Pos{Line: 2, Column: 13, Byte: 46},
		},
		"loose constraints": {
			reason: "constraints must be normalized", src: "provider \"example.com/test/foo\" {\n  version = \"1.0.0\"\n  constraints = \">= 1.0\"\n}\n",
			summary: "Invalid provider version constraints", start: hcl.Pos{Line: 3, Column: 17, Byte: 70},
		},
		"empty hashes": {
			reason: "an empty hash list is refused", src: "provider \"example.com/test/foo\" {\n  version = \"1.0.0\"\n  hashes = []\n}\n",
			summary: "Invalid provider hash set", start: hcl.Pos{Line: 3, Column: 12, Byte: 65},
		},
		"bad hash": {
			reason: "a hash needs a scheme", src: "provider \"example.com/test/foo\" {\n  version = \"1.0.0\"\n  hashes = [\"abc\"]\n}\n",
			summary: "Invalid provider hash string", start: hcl.Pos{Line: 3, Column: 12, Byte: 65},
		},
		"duplicate": {
			reason: "one block per provider", src: "provider \"example.com/test/foo\" {\n  version = \"1.0.0\"\n}\nprovider \"example.com/test/foo\" {\n  version = \"1.0.0\"\n}\n",
			summary: "Duplicate provider lock", start: hcl.Pos{Line: 4, Column: 10, Byte: 65},
		},
		"module": {
			reason: "module locks are reserved", src: "module \"x\" {\n}\n",
			summary: "Dependency locks for modules are not yet supported", start: hcl.Pos{Line: 1, Column: 1, Byte: 0},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := Parse([]byte(tc.src), "lock.hcl")
			if !diags.HasErrors() {
				t.Fatalf("%s: no error", tc.reason)
			}
			d := diags[0]
			got := struct {
				Summary string
				Start   hcl.Pos
			}{d.Summary, d.Subject.Start}
			want := struct {
				Summary string
				Start   hcl.Pos
			}{tc.summary, tc.start}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	src, _ := os.ReadFile("testdata/merged-constraints.terraform.lock.hcl")
	f.Add(src)
	f.Fuzz(func(t *testing.T, src []byte) {
		locks, _ := Parse(src, "fuzz.hcl")
		_ = locks.Bytes()
	})
}
