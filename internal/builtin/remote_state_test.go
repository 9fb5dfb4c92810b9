package builtin

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// stateWithOutputs is a state file (version 4) with a plain output and a
// sensitive one.
const stateWithOutputs = `{
  "version": 4, "terraform_version": "1.5.7", "serial": 1, "lineage": "l",
  "outputs": {
    "plain": {"value": "hello", "type": "string"},
    "secret": {"value": {"k": 1}, "type": ["object", {"k": "number"}], "sensitive": true}
  },
  "resources": []
}`

// remoteState builds a terraform_remote_state configuration; NilVal
// arguments are null.
func remoteState(backend string, config, defaults, workspace cty.Value) cty.Value {
	orNull := func(v cty.Value, ty cty.Type) cty.Value {
		if v == cty.NilVal {
			return cty.NullVal(ty)
		}
		return v
	}
	return cty.ObjectVal(map[string]cty.Value{
		"backend":   cty.StringVal(backend),
		"config":    orNull(config, cty.DynamicPseudoType),
		"defaults":  orNull(defaults, cty.DynamicPseudoType),
		"outputs":   cty.NullVal(cty.DynamicPseudoType),
		"workspace": orNull(workspace, cty.String),
	})
}

func pathConfig(path string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"path": cty.StringVal(path)})
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRemoteStateRead(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a", "terraform.tfstate"), stateWithOutputs)
	writeFile(t, filepath.Join(dir, "terraform.tfstate"), stateWithOutputs)
	writeFile(t, filepath.Join(dir, "terraform.tfstate.d", "dev", "terraform.tfstate"), stateWithOutputs)
	writeFile(t, filepath.Join(dir, "ws", "blue", "terraform.tfstate"), stateWithOutputs)
	writeFile(t, filepath.Join(dir, "empty.tfstate"), "")
	secret := cty.ObjectVal(map[string]cty.Value{"k": cty.NumberIntVal(1)})
	stateOutputs := cty.ObjectVal(map[string]cty.Value{"plain": cty.StringVal("hello"), "secret": secret})

	cases := map[string]struct {
		reason    string
		config    cty.Value
		want      cty.Value
		wantDiags []diagView
	}{
		"RelativePath": {
			reason: "A relative path is relative to the working directory; sensitive outputs are unmarked, as Terraform 1.5.7 leaves them.",
			config: remoteState("local", pathConfig("a/terraform.tfstate"), cty.NilVal, cty.NilVal),
			want:   stateOutputs,
		},
		"AbsolutePath": {
			config: remoteState("local", pathConfig(filepath.Join(dir, "a", "terraform.tfstate")), cty.NilVal, cty.NilVal),
			want:   stateOutputs,
		},
		"DefaultPath": {
			reason: "With no config the default workspace's state is terraform.tfstate.",
			config: remoteState("local", cty.NilVal, cty.NilVal, cty.NilVal),
			want:   stateOutputs,
		},
		"LegacyLocal": {
			config: remoteState("_local", cty.NilVal, cty.NilVal, cty.NilVal),
			want:   stateOutputs,
		},
		"Defaults": {
			reason: "Defaults fill in outputs the state lacks and lose to those it has.",
			config: remoteState("local", pathConfig("a/terraform.tfstate"),
				cty.ObjectVal(map[string]cty.Value{"plain": cty.StringVal("d"), "extra": cty.StringVal("e")}), cty.NilVal),
			want: cty.ObjectVal(map[string]cty.Value{"plain": cty.StringVal("hello"), "secret": secret, "extra": cty.StringVal("e")}),
		},
		"Workspace": {
			reason: "A non-default workspace lives under terraform.tfstate.d/NAME; path applies only to the default one.",
			config: remoteState("local", pathConfig("nowhere.tfstate"), cty.NilVal, cty.StringVal("dev")),
			want:   stateOutputs,
		},
		"WorkspaceDir": {
			config: remoteState("local", cty.ObjectVal(map[string]cty.Value{"workspace_dir": cty.StringVal("ws")}), cty.NilVal, cty.StringVal("blue")),
			want:   stateOutputs,
		},
		"Missing": {
			reason:    "Terraform 1.5.7 fails when the state does not exist, defaults or not.",
			config:    remoteState("local", pathConfig("nope.tfstate"), cty.ObjectVal(map[string]cty.Value{"x": cty.True}), cty.NilVal),
			wantDiags: []diagView{{diags.Error, "Unable to find remote state"}},
		},
		"EmptyFile": {
			config:    remoteState("local", pathConfig("empty.tfstate"), cty.NilVal, cty.NilVal),
			wantDiags: []diagView{{diags.Error, "Unable to find remote state"}},
		},
		"MissingWorkspace": {
			config:    remoteState("local", cty.NilVal, cty.NilVal, cty.StringVal("prod")),
			wantDiags: []diagView{{diags.Error, "Unable to find remote state"}},
		},
		"WorkspaceWithSeparator": {
			config:    remoteState("local", cty.NilVal, cty.NilVal, cty.StringVal("../a")),
			wantDiags: []diagView{{diags.Error, "Invalid workspace name"}},
		},
		"OtherBackend": {
			config:    remoteState("s3", cty.NilVal, cty.NilVal, cty.NilVal),
			wantDiags: []diagView{{diags.Error, "Invalid backend configuration"}},
		},
	}
	p := &TerraformProvider{Dir: dir}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := p.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "terraform_remote_state", Config: tc.config})
			if diff := cmp.Diff(tc.wantDiags, viewDiags(resp.Diagnostics)); diff != "" {
				t.Fatalf("%s\ndiagnostics -want +got:\n%s", tc.reason, diff)
			}
			if tc.want == cty.NilVal {
				return
			}
			attrs := tc.config.AsValueMap()
			attrs["outputs"] = tc.want
			if diff := cmp.Diff(cty.ObjectVal(attrs), resp.State, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestRemoteStateValidate(t *testing.T) {
	cases := map[string]struct {
		config cty.Value
		want   []diagView
		detail string
	}{
		"Local":         {config: remoteState("local", pathConfig("x"), cty.NilVal, cty.NilVal)},
		"UnknownConfig": {config: remoteState("local", cty.UnknownVal(cty.DynamicPseudoType), cty.NilVal, cty.NilVal)},
		"UnknownBackend": {
			config: cty.ObjectVal(map[string]cty.Value{"backend": cty.UnknownVal(cty.String), "config": cty.NullVal(cty.DynamicPseudoType),
				"defaults": cty.NullVal(cty.DynamicPseudoType), "outputs": cty.NullVal(cty.DynamicPseudoType), "workspace": cty.NullVal(cty.String)}),
		},
		"NoSuchBackend": {
			config: remoteState("bogus", cty.NilVal, cty.NilVal, cty.NilVal),
			want:   []diagView{{diags.Error, "Invalid backend configuration"}},
			detail: `There is no backend type named "bogus".`,
		},
		"UnexpectedAttribute": {
			config: remoteState("local", cty.ObjectVal(map[string]cty.Value{"path": cty.StringVal("x"), "foo": cty.NumberIntVal(1)}), cty.NilVal, cty.NilVal),
			want:   []diagView{{diags.Error, "Invalid backend configuration"}},
			detail: `The given configuration is not valid for backend "local": unexpected attribute "foo".`,
		},
		"EmptyPath": {
			config: remoteState("local", pathConfig(""), cty.NilVal, cty.NilVal),
			want:   []diagView{{diags.Error, "Invalid local state file path"}},
			detail: `The "path" attribute value must not be empty.`,
		},
		"EmptyWorkspaceDir": {
			config: remoteState("local", cty.ObjectVal(map[string]cty.Value{"workspace_dir": cty.StringVal("")}), cty.NilVal, cty.NilVal),
			want:   []diagView{{diags.Error, "Invalid local workspace directory path"}},
			detail: `The "workspace_dir" attribute value must not be empty.`,
		},
		"PathNotString": {
			config: remoteState("local", cty.ObjectVal(map[string]cty.Value{"path": cty.EmptyObjectVal}), cty.NilVal, cty.NilVal),
			want:   []diagView{{diags.Error, "Invalid backend configuration"}},
			detail: `The given configuration is not valid for backend "local": .path: string required.`,
		},
	}
	p := NewTerraformProvider()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ds := p.ValidateDataResourceConfig(context.Background(), providers.ValidateDataResourceConfigRequest{TypeName: "terraform_remote_state", Config: tc.config}).Diagnostics
			if diff := cmp.Diff(tc.want, viewDiags(ds)); diff != "" {
				t.Fatalf("-want +got:\n%s", diff)
			}
			if tc.detail != "" && ds[0].Detail != tc.detail {
				t.Errorf("detail %q, want %q", ds[0].Detail, tc.detail)
			}
		})
	}
}

// TestRemoteStateReadsJournal checks that outputs an apply has recorded in
// its journal, but not yet written to the snapshot, are read, and that the
// read leaves the journal in place: another configuration's state is never
// recovered by a reader.
func TestRemoteStateReadsJournal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	writeFile(t, path, stateWithOutputs)
	mgr := statemgr.NewFilesystem(path)
	base, err := mgr.Read()
	if err != nil {
		t.Fatal(err)
	}
	rec, err := mgr.BeginApply(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	if err := rec.SetOutput("plain", &states.OutputValue{Value: cty.StringVal("journaled")}); err != nil {
		t.Fatal(err)
	}

	p := &TerraformProvider{Dir: dir}
	resp := p.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "terraform_remote_state",
		Config: remoteState("local", cty.NilVal, cty.NilVal, cty.NilVal)})
	if resp.Diagnostics.HasErrors() {
		t.Fatalf("read: %v", resp.Diagnostics)
	}
	if got := resp.State.GetAttr("outputs").GetAttr("plain"); !got.RawEquals(cty.StringVal("journaled")) {
		t.Errorf("plain = %#v, want the journaled value", got)
	}
	if _, err := os.Stat(path + ".journal"); err != nil {
		t.Errorf("the read disturbed the journal: %v", err)
	}
}
