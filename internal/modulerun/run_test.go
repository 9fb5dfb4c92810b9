package modulerun

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

func load(t *testing.T, dir string) *Module {
	t.Helper()
	m, ds := Load(context.Background(), Source{Source: "./" + dir}, Options{BaseDir: "testdata"})
	if ds.HasErrors() {
		t.Fatalf("Load: %s", ds.Err())
	}
	return m
}

// actions maps each instance's address to its action.
func actions(is []Instance) map[string]string {
	out := map[string]string{}
	for _, i := range is {
		out[i.Addr.String()] = i.Action.String()
	}
	return out
}

func planApply(t *testing.T, m *Module, mode plans.Mode, vars map[string]cty.Value, prior []byte) (*Planned, *Result) {
	t.Helper()
	ctx := context.Background()
	p, ds := m.Plan(ctx, mode, vars, prior)
	if ds.HasErrors() {
		t.Fatalf("Plan: %s", ds.Err())
	}
	r, ds := m.Apply(ctx, p)
	if ds.HasErrors() {
		t.Fatalf("Apply: %s", ds.Err())
	}
	return p, r
}

func TestLifecycle(t *testing.T) {
	m := load(t, "three")
	vars := map[string]cty.Value{"prefix": cty.StringVal("a")}
	p, r := planApply(t, m, plans.NormalMode, vars, nil)
	want := map[string]string{
		"terraform_data.base": "create", "terraform_data.last": "create",
		"terraform_data.replica[0]": "create", "terraform_data.replica[1]": "create",
	}
	if diff := cmp.Diff(want, actions(p.Instances)); diff != "" {
		t.Errorf("planned actions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, actions(r.Instances)); diff != "" {
		t.Errorf("applied actions (-want +got):\n%s", diff)
	}
	if got := p.Outputs["base"].Value; got.IsKnown() {
		t.Errorf("planned output base = %#v, want unknown until apply", got)
	}
	if tok := r.Outputs["token"]; !tok.Sensitive || !strings.HasPrefix(tok.Value.AsString(), "s3cr3t-") {
		t.Errorf("output token = %#v, want sensitive s3cr3t-ID", tok)
	}
	if got := r.Instances[2].After.GetAttr("output"); !got.RawEquals(cty.StringVal("a-base-0")) {
		t.Errorf("replica[0] output = %#v", got)
	}

	cases := map[string]struct {
		reason string
		mode   plans.Mode
		vars   map[string]cty.Value
		want   map[string]string
	}{
		"unchanged": {
			reason: "the same inputs plan no change",
			vars:   vars,
			want: map[string]string{"terraform_data.base": "no-op", "terraform_data.last": "no-op",
				"terraform_data.replica[0]": "no-op", "terraform_data.replica[1]": "no-op"},
		},
		"count": {
			reason: "one more replica creates one instance and leaves the rest",
			vars:   map[string]cty.Value{"prefix": cty.StringVal("a"), "replicas": cty.NumberIntVal(3)},
			want: map[string]string{"terraform_data.base": "no-op", "terraform_data.last": "no-op",
				"terraform_data.replica[0]": "no-op", "terraform_data.replica[1]": "no-op", "terraform_data.replica[2]": "create"},
		},
		"prefix": {
			reason: "a new prefix updates base and, through its output, the replicas",
			vars:   map[string]cty.Value{"prefix": cty.StringVal("b")},
			want: map[string]string{"terraform_data.base": "update", "terraform_data.last": "no-op",
				"terraform_data.replica[0]": "update", "terraform_data.replica[1]": "update"},
		},
		"refresh": {
			reason: "refresh-only keeps every instance",
			mode:   plans.RefreshOnlyMode,
			vars:   vars,
			want: map[string]string{"terraform_data.base": "no-op", "terraform_data.last": "no-op",
				"terraform_data.replica[0]": "no-op", "terraform_data.replica[1]": "no-op"},
		},
		"destroy": {
			reason: "destroy leaves nothing",
			mode:   plans.DestroyMode,
			vars:   vars,
			want:   map[string]string{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, r2 := planApply(t, m, tc.mode, tc.vars, r.State)
			if diff := cmp.Diff(tc.want, actions(p.Instances)); diff != "" {
				t.Errorf("%s: planned actions (-want +got):\n%s", tc.reason, diff)
			}
			if tc.mode == plans.DestroyMode && len(r2.Instances) != 0 {
				t.Errorf("%s: %d instances left", tc.reason, len(r2.Instances))
			}
		})
	}
}

func TestErrors(t *testing.T) {
	cases := map[string]struct {
		reason  string
		src     Source
		vars    map[string]cty.Value
		summary string
		at      string
	}{
		"syntax": {
			reason: "a module that fails to parse is refused at its file and line",
			src:    Source{Source: "./badsyntax"}, summary: "Invalid expression", at: "main.tf:2",
		},
		"missing dir": {
			reason: "a local source that is not a directory",
			src:    Source{Source: "./nope"}, summary: "Module directory not found",
		},
		"remote": {
			reason: "remote sources go through the resolver, none by default",
			src:    Source{Source: "hashicorp/consul/aws", Version: "1.0.0"}, summary: "Failed to resolve the module source",
		},
		"wrong type": {
			reason: "a value that does not convert is reported at the variable's declaration",
			src:    Source{Source: "./three"}, vars: map[string]cty.Value{"prefix": cty.StringVal("a"), "replicas": cty.StringVal("many")},
			summary: "Invalid value for input variable", at: "main.tf:5",
		},
		"unknown input": {
			reason: "an input the module does not declare",
			src:    Source{Source: "./three"}, vars: map[string]cty.Value{"prefix": cty.StringVal("a"), "nope": cty.True},
			summary: "Unknown module input",
		},
		"missing required": {
			reason: "a variable with no default must be given",
			src:    Source{Source: "./three"}, summary: "No value for required variable", at: "main.tf:1",
		},
		"not installed": {
			reason: "a plugin provider init did not install in the module's directory",
			src:    Source{Source: "./noinit"}, summary: "Required plugins are not installed",
		},
		"missing resource": {
			reason: "an output referring to an undeclared resource",
			src:    Source{Source: "./badref"}, summary: "Reference to undeclared resource", at: "main.tf:6",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			m, ds := Load(ctx, tc.src, Options{BaseDir: "testdata"})
			if !ds.HasErrors() {
				_, ds = m.Plan(ctx, plans.NormalMode, tc.vars, nil)
			}
			d := firstError(ds)
			if d == nil {
				t.Fatalf("%s: no error", tc.reason)
			}
			if d.Summary != tc.summary {
				t.Errorf("%s: summary %q, want %q (%s)", tc.reason, d.Summary, tc.summary, d.Detail)
			}
			if tc.at != "" {
				if d.Subject == nil {
					t.Fatalf("%s: no source range", tc.reason)
				}
				at := filepath.Base(d.Subject.Filename) + ":" + itoa(d.Subject.Start.Line)
				if at != tc.at {
					t.Errorf("%s: at %s, want %s", tc.reason, at, tc.at)
				}
			}
		})
	}
}

func TestNoRemote(t *testing.T) {
	_, err := NoRemote{}.Resolve(context.Background(), Source{Source: "git::https://example.com/m.git"})
	if !errors.Is(err, ErrRemoteUnsupported) {
		t.Errorf("err = %v, want ErrRemoteUnsupported", err)
	}
}

func firstError(ds diags.Diagnostics) *diags.Diagnostic {
	for i := range ds {
		if ds[i].Severity == diags.Error {
			return &ds[i]
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
