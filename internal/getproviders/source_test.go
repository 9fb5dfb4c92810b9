package getproviders_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

var (
	linux = getproviders.Platform{OS: "linux", Arch: "amd64"}
	foo   = addrs.Provider{Hostname: "example.com", Namespace: "test", Type: "foo"}
	bar   = addrs.Provider{Hostname: "example.com", Namespace: "test", Type: "bar"}
	baz   = addrs.Provider{Hostname: "example.com", Namespace: "test", Type: "baz"}
)

func mirrorSource(t *testing.T) (getproviders.Source, string) {
	dir := t.TempDir()
	writeMirror(t, dir)
	return getproviders.Source{Methods: []getproviders.Method{{Dir: getproviders.Dir(dir)}}, Platform: linux}, dir
}

func TestSelect(t *testing.T) {
	src, dir := mirrorSource(t)
	writeFile(t, filepath.Join(dir, "example.com/test/foo/2.1.0-beta1/linux_amd64/terraform-provider-foo_v2.1.0-beta1"), "b", 0o755)
	tests := map[string]struct {
		reason   string
		provider addrs.Provider
		cs       string
		locked   string
		upgrade  bool
		want     string
		wantErr  string
	}{
		"newest in range":    {reason: "~> 1.2 allows 1.x", provider: foo, cs: "~> 1.2", want: "1.3.0"},
		"patch range":        {reason: "~> 1.2.0 allows 1.2.x", provider: foo, cs: "~> 1.2.0", want: "1.2.3"},
		"merged":             {reason: "every module's terms hold", provider: foo, cs: ">= 1.0, != 1.2.0, ~> 1.2.0, 1.2.3, < 1.5", want: "1.2.3"},
		"unconstrained":      {reason: "no constraint means newest", provider: foo, want: "2.0.0"},
		"locked":             {reason: "the lock wins without -upgrade", provider: foo, cs: "~> 1.2", locked: "1.2.0", want: "1.2.0"},
		"upgrade":            {reason: "-upgrade ignores the lock", provider: foo, cs: "~> 1.2", locked: "1.2.0", upgrade: true, want: "1.3.0"},
		"locked outside":     {reason: "a lock outside the constraints needs -upgrade", provider: foo, cs: ">= 2.0", locked: "1.2.0", wantErr: "does not match configured version constraint >= 2.0.0"},
		"locked missing":     {reason: "a locked version must still be offered", provider: foo, locked: "1.1.0", wantErr: "no longer available"},
		"none match":         {reason: "Terraform's message for an empty range", provider: foo, cs: ">= 3.0", wantErr: "no available releases match the given constraints >= 3.0.0"},
		"prerelease skipped": {reason: "a pre-release is not newest unless named", provider: foo, cs: ">= 1.0", want: "2.0.0"},
		"prerelease exact":   {reason: "an exact term selects a pre-release", provider: foo, cs: "2.1.0-beta1", want: "2.1.0-beta1"},
		"prerelease bound":   {reason: "Terraform finds no match for >= PRERELEASE here", provider: foo, cs: ">= 2.1.0-beta1", wantErr: "no available releases match the given constraints >= 2.1.0-beta1"},
		"packed":             {reason: "zip archives are offered too", provider: bar, cs: ">= 0.1, < 2.0.0", want: "0.5.0"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cs, err := getproviders.ParseConstraints(tc.cs)
			if err != nil {
				t.Fatal(err)
			}
			var locked *version.Version
			if tc.locked != "" {
				locked = version.Must(version.NewVersion(tc.locked))
			}
			avail, err := src.Available(tc.provider)
			if err != nil {
				t.Fatal(err)
			}
			pkg, err := getproviders.Select(tc.provider, avail, cs, locked, tc.upgrade)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s: got error %v, want %q", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if diff := cmp.Diff(tc.want, pkg.Version.String()); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func TestAvailableOrderAndErrors(t *testing.T) {
	src, dir := mirrorSource(t)
	second := t.TempDir()
	writeFile(t, filepath.Join(second, "example.com/test/foo/1.3.0/linux_amd64/terraform-provider-foo_v1.3.0"), "other", 0o755)
	writeFile(t, filepath.Join(second, "example.com/test/foo/9.0.0/darwin_arm64/terraform-provider-foo_v9.0.0"), "mac", 0o755)
	src.Methods = append(src.Methods, getproviders.Method{Dir: getproviders.Dir(second)})

	avail, err := src.Available(foo)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pkg := range avail {
		got = append(got, pkg.Version.String()+" "+pkg.Location)
	}
	want := []string{"2.0.0", "1.3.0", "1.2.3", "1.2.0"}
	for i := range want {
		want[i] += " " + filepath.Join(dir, "example.com/test/foo", want[i], "linux_amd64")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("first method wins, other platforms ignored: -want +got\n%s", diff)
	}

	src.Methods = append(src.Methods, getproviders.Method{Kind: getproviders.Direct, Exclude: []getproviders.Pattern{{"example.com", "test", "foo"}}})
	_, err = src.Available(baz)
	var nf *getproviders.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("want NotFoundError, got %v", err)
	}
	if diff := cmp.Diff([]string{dir, second, "the origin registry (not contacted: Cairn installs only from local directories)"}, nf.Places); diff != "" {
		t.Errorf("every place looked: -want +got\n%s", diff)
	}

	wantDetail := "Could not retrieve the list of available versions for provider example.com/test/baz: provider example.com/test/baz was not found in any of the search locations\n\n  - " +
		dir + "\n  - " + second + "\n  - the origin registry (not contacted: Cairn installs only from local directories)"
	if diff := cmp.Diff(wantDetail, getproviders.QueryDiagnostic(baz, err, nil).Detail); diff != "" {
		t.Errorf("Terraform's wording: -want +got\n%s", diff)
	}

	src.Methods = append(src.Methods, getproviders.Method{Dir: getproviders.Dir(filepath.Join(dir, "nothere"))})
	if _, err := src.Available(foo); err == nil || !strings.Contains(err.Error(), "cannot search") {
		t.Errorf("a missing directory is an error, as in Terraform: %v", err)
	}
}

func TestMethodApplies(t *testing.T) {
	pat := func(s string) getproviders.Pattern {
		p, err := getproviders.ParsePattern(s)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := map[string]struct {
		reason string
		method getproviders.Method
		want   bool
	}{
		"no lists":          {reason: "empty include means all", want: true},
		"include host":      {reason: "wildcards per part", method: getproviders.Method{Include: []getproviders.Pattern{pat("example.com/*/*")}}, want: true},
		"include other":     {reason: "not included", method: getproviders.Method{Include: []getproviders.Pattern{pat("hashicorp/*")}}, want: false},
		"exclude wins":      {reason: "exclude beats include", method: getproviders.Method{Include: []getproviders.Pattern{pat("example.com/*/*")}, Exclude: []getproviders.Pattern{pat("example.com/test/foo")}}, want: false},
		"exclude elsewhere": {reason: "other excludes do not matter", method: getproviders.Method{Exclude: []getproviders.Pattern{pat("example.com/test/bar")}}, want: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := tc.method.Applies(foo); got != tc.want {
				t.Errorf("%s: got %v", tc.reason, got)
			}
		})
	}
}

func TestConstraintsString(t *testing.T) {
	tests := map[string]struct {
		in, want string
	}{
		"pessimistic minor": {"~> 1.2", "~> 1.2"},
		"pessimistic major": {"~> 1", "~> 1.0"},
		"pessimistic patch": {"~> 1.2.0", "~> 1.2.0"},
		"padded":            {">= 0.1, < 2.0.0", ">= 0.1.0, < 2.0.0"},
		"merged":            {">= 1.0, != 1.2.0, ~> 1.2.0, 1.2.3, >= 1.0.0, < 1.5", ">= 1.0.0, ~> 1.2.0, != 1.2.0, 1.2.3, < 1.5.0"},
		"equals":            {"= 1.0.0", "1.0.0"},
		"prerelease":        {"1.0.0-beta1", "1.0.0-beta1"},
		"mixed":             {">1, <=2.0, ~>0, != 1.0.0-beta, = 3.0.0, 3.0.0", "~> 0.0, != 1.0.0-beta, > 1.0.0, <= 2.0.0, 3.0.0"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cs, err := getproviders.ParseConstraints(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, cs.String()); diff != "" {
				t.Errorf("-want +got\n%s", diff)
			}
		})
	}
	if _, err := getproviders.ParseConstraints("~> banana"); err == nil {
		t.Error("a bad term must be an error")
	}
}

func TestPrereleaseOnlyByExactTerm(t *testing.T) {
	pre := version.Must(version.NewVersion("1.3.0-beta1"))
	for in, want := range map[string]bool{">= 1.0": false, "1.3.0-beta1": true, "": false} {
		cs, _ := getproviders.ParseConstraints(in)
		if got := cs.Allows(pre); got != want {
			t.Errorf("%q allows 1.3.0-beta1: got %v", in, got)
		}
	}
}
