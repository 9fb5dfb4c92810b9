package statefile_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/ written by this package")

// TestRoundTrip reads every golden file and writes it back. The tf_*
// files were written by the real Terraform 1.5.7 (see
// statefile_terraform_test.go), so identical bytes show that Write lays
// state out exactly as Terraform does.
func TestRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 6 {
		t.Fatalf("found only %d golden files: %v", len(files), files)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, err := statefile.Read(bytes.NewReader(want))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			var got bytes.Buffer
			if err := statefile.Write(f, &got); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("Read then Write (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWriteGolden writes sampleState, which holds the entries a plain
// terraform_data apply cannot produce, and checks that reading the result
// gives the same state back.
func TestWriteGolden(t *testing.T) {
	want := &statefile.File{TerraformVersion: "1.5.7", Serial: 42, Lineage: "f1c3e2a4-0000-4000-8000-000000000001", State: sampleState()}
	var buf bytes.Buffer
	if err := statefile.Write(want, &buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "sample.tfstate")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantBytes, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(wantBytes), buf.String()); diff != "" {
		t.Errorf("Write (-want +got):\n%s", diff)
	}
	got, err := statefile.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	// Reading canonicalizes attribute JSON (HTML characters escaped) and
	// sorts dependencies, as Terraform does; compare after one more cycle.
	want = mustRoundTrip(t, want)
	if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
		t.Errorf("Read(Write(f)) (-want +got):\n%s", diff)
	}
}

func mustRoundTrip(t *testing.T, f *statefile.File) *statefile.File {
	t.Helper()
	var buf bytes.Buffer
	if err := statefile.Write(f, &buf); err != nil {
		t.Fatal(err)
	}
	out, err := statefile.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReadModel checks what Read builds from files Terraform wrote.
func TestReadModel(t *testing.T) {
	tests := map[string]struct {
		reason string
		file   string
		check  func(t *testing.T, s *states.State)
	}{
		"deposed": {
			reason: "a failed create-before-destroy leaves a tainted current object and a deposed one",
			file:   "tf_deposed.tfstate",
			check: func(t *testing.T, s *states.State) {
				ri := s.ResourceInstance(managed("terraform_data", "d").Instance(addrs.NoKey))
				if ri == nil || ri.Current == nil {
					t.Fatal("terraform_data.d has no current object")
				}
				if diff := cmp.Diff(states.ObjectTainted, ri.Current.Status); diff != "" {
					t.Errorf("current status (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(1, len(ri.Deposed)); diff != "" {
					t.Errorf("deposed objects (-want +got):\n%s", diff)
				}
				if !ri.Current.CreateBeforeDestroy {
					t.Errorf("current object lost create_before_destroy")
				}
			},
		},
		"modules": {
			reason: "module instance paths with count and for_each keys",
			file:   "tf_modules.tfstate",
			check: func(t *testing.T, s *states.State) {
				r := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r"}
				for _, m := range []addrs.ModuleInstance{
					{{Name: "m", Key: addrs.IntKey(10)}},
					{{Name: "f", Key: addrs.StringKey("y")}},
				} {
					if s.Resource(r.Absolute(m)) == nil {
						t.Errorf("no resource %s", r.Absolute(m))
					}
				}
			},
		},
		"data": {
			reason: "a data resource",
			file:   "tf_data.tfstate",
			check: func(t *testing.T, s *states.State) {
				d := addrs.Resource{Mode: addrs.DataResourceMode, Type: "terraform_remote_state", Name: "o"}
				if s.Resource(d.Absolute(addrs.RootModuleInstance)) == nil {
					t.Errorf("no resource %s", d)
				}
			},
		},
		"everything": {
			reason: "count keys, for_each keys, sensitive outputs and paths",
			file:   "tf_everything.tfstate",
			check: func(t *testing.T, s *states.State) {
				if rs := s.Resource(managed("terraform_data", "c")); rs == nil || len(rs.Instances) != 12 {
					t.Errorf("terraform_data.c: want 12 instances, got %v", rs)
				}
				if s.ResourceInstance(managed("terraform_data", "e").Instance(addrs.StringKey("B"))) == nil {
					t.Errorf(`no terraform_data.e["B"]`)
				}
				if o := s.Outputs["secret"]; o == nil || !o.Sensitive {
					t.Errorf("output secret: want sensitive, got %#v", o)
				}
				nested := s.ResourceInstance(managed("terraform_data", "nested").Instance(addrs.NoKey))
				if nested == nil || len(nested.Current.AttrSensitivePaths) != 3 {
					t.Fatalf("terraform_data.nested: want 3 sensitive paths, got %#v", nested)
				}
				if got := diags.FormatPath(nested.Current.AttrSensitivePaths[1]); got != ".input.l[1]" {
					t.Errorf("second sensitive path: want .input.l[1], got %s", got)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			f, err := statefile.Read(bytes.NewReader(src))
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			tc.check(t, f.State)
		})
	}
}

// validDoc returns a minimal valid state file with resources substituted
// in, for error cases that concern one entry.
func validDoc(resources string) string {
	return `{"version":4,"terraform_version":"1.5.7","serial":1,"lineage":"l","outputs":{},"resources":[` + resources + `]}`
}

func resourceDoc(fields, instance string) string {
	return validDoc(`{"mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]"` +
		fields + `,"instances":[` + instance + `]}`)
}

func TestReadErrors(t *testing.T) {
	tests := map[string]struct {
		reason  string
		input   string
		wantErr string // a substring the message must contain
		wantIs  error
	}{
		"empty": {
			reason: "an empty file is no state, as Terraform treats it",
			input:  " \n", wantIs: statefile.ErrNoState,
		},
		"syntax": {
			reason: "syntax errors give line and column",
			input:  "{\n  \"version\": 4,\n  \"serial\": x\n}", wantErr: "line 3, column 14",
		},
		"truncated": {
			reason: "a file cut short is a syntax error",
			input:  `{"version": 4, "resources": [`, wantErr: "not valid JSON",
		},
		"not an object": {
			reason: "the top level must be an object",
			input:  `[1]`, wantErr: "top level",
		},
		"no version": {
			reason: "a JSON object that is not a state file",
			input:  `{"hello": 1}`, wantErr: `no "version"`,
		},
		"version 3": {
			reason: "older formats must be upgraded by Terraform",
			input:  `{"version": 3, "serial": 1, "modules": []}`, wantErr: "must be upgraded",
		},
		"version 3 with odd fields": {
			reason: "the version explains later type errors",
			input:  `{"version": 3, "serial": "one"}`, wantErr: "version 3",
		},
		"provider on resource and object": {
			reason: "OpenTofu names the provider on the resource or on each object, never both",
			input: `{"version": 4, "serial": 1, "lineage": "x", "resources": [{"mode": "managed", "type": "a", "name": "b",
				"provider": "provider[\"registry.opentofu.org/hashicorp/null\"].r",
				"instances": [{"provider": "provider[\"registry.opentofu.org/hashicorp/null\"].r[\"x\"]", "schema_version": 0, "attributes": {}}]}]}`,
			wantErr: "one or the other",
		},
		"no provider anywhere": {
			reason: "an object must have a provider configuration to be destroyed with",
			input: `{"version": 4, "serial": 1, "lineage": "x", "resources": [{"mode": "managed", "type": "a", "name": "b",
				"instances": [{"schema_version": 0, "attributes": {}}]}]}`,
			wantErr: `missing "provider"`,
		},
		"objects with different configurations": {
			reason: "the instances of one resource share one provider configuration, as OpenTofu requires",
			input: `{"version": 4, "serial": 1, "lineage": "x", "resources": [{"mode": "managed", "type": "a", "name": "b", "each": "map",
				"instances": [{"index_key": "p", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"].r[\"x\"]", "schema_version": 0, "attributes": {}},
				{"index_key": "q", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"].s[\"x\"]", "schema_version": 0, "attributes": {}}]}]}`,
			wantErr: "different provider configurations",
		},
		"version 5": {
			reason: "newer formats are refused by number",
			input:  `{"version": 5}`, wantErr: "unsupported format version 5",
		},
		"version fraction": {
			input: `{"version": 4.5}`, wantErr: "invalid format version 4.5",
		},
		"serial type": {
			reason: "type errors name the field",
			input:  `{"version": 4, "serial": "1"}`, wantErr: `field "serial"`,
		},
		"mode": {
			input: validDoc(`{"mode":"both","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]}`), wantErr: `invalid mode "both"`,
		},
		"type name": {
			input: validDoc(`{"mode":"managed","type":"t.x","name":"n","provider":"provider[\"a/b/c\"]","instances":[]}`), wantErr: "invalid address",
		},
		"module": {
			input: validDoc(`{"module":"module.","mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]}`), wantErr: "invalid module address",
		},
		"provider": {
			input: validDoc(`{"mode":"managed","type":"t","name":"n","provider":"aws","instances":[]}`), wantErr: "invalid provider address",
		},
		"provider source": {
			input: validDoc(`{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c/d\"]","instances":[]}`), wantErr: "invalid provider address",
		},
		"index key fraction": {
			input: resourceDoc("", `{"index_key":1.5,"schema_version":0,"attributes":{}}`), wantErr: "invalid index_key 1.5",
		},
		"index key negative": {
			input: resourceDoc("", `{"index_key":-1,"schema_version":0,"attributes":{}}`), wantErr: "invalid index_key -1",
		},
		"index key bool": {
			input: resourceDoc("", `{"index_key":true,"schema_version":0,"attributes":{}}`), wantErr: "invalid index_key true",
		},
		"deposed key": {
			input: resourceDoc("", `{"deposed":"xyz","schema_version":0,"attributes":{}}`), wantErr: `invalid deposed key "xyz"`,
		},
		"status": {
			input: resourceDoc("", `{"status":"gone","schema_version":0,"attributes":{}}`), wantErr: `invalid status "gone"`,
		},
		"attributes_flat": {
			reason: "the legacy flatmap form needs Terraform's upgrade",
			input:  resourceDoc("", `{"schema_version":0,"attributes_flat":{"id":"x"}}`), wantErr: "attributes_flat",
		},
		"sensitive path step": {
			input: resourceDoc("", `{"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"splat","value":1}]]}`), wantErr: `unsupported step type "splat"`,
		},
		"sensitive path index": {
			input: resourceDoc("", `{"schema_version":0,"attributes":{},"sensitive_attributes":[[{"type":"index","value":0}]]}`), wantErr: "invalid sensitive_attributes",
		},
		"sensitive path shape": {
			input: resourceDoc("", `{"schema_version":0,"attributes":{},"sensitive_attributes":{"a":1}}`), wantErr: "invalid sensitive_attributes",
		},
		"dependency": {
			input: resourceDoc("", `{"schema_version":0,"attributes":{},"dependencies":["terraform_data.b[0]"]}`), wantErr: "dependencies",
		},
		"dependency after module key": {
			reason: "a second index after a module key is not an address",
			input:  resourceDoc("", `{"schema_version":0,"attributes":{},"dependencies":["module.a[0][1].t.n"]}`), wantErr: "must follow the module path",
		},
		"module with two keys": {
			input: validDoc(`{"module":"module.a[0][1]","mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]}`), wantErr: "invalid module address",
		},
		"private": {
			input: resourceDoc("", `{"schema_version":0,"attributes":{},"private":"not base64!"}`), wantErr: "invalid state file",
		},
		"duplicate instance": {
			input:   resourceDoc("", `{"index_key":0,"schema_version":0,"attributes":{}},{"index_key":0,"schema_version":0,"attributes":{}}`),
			wantErr: "terraform_data.a[0]: the current object appears more than once",
		},
		"duplicate resource": {
			input: validDoc(`{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]},` +
				`{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]}`),
			wantErr: "t.n appears more than once",
		},
		"output type": {
			input: `{"version":4,"outputs":{"o":{"value":1,"type":"strung"}}}`, wantErr: `output "o": invalid type`,
		},
		"output value": {
			input: `{"version":4,"outputs":{"o":{"value":"x","type":"number"}}}`, wantErr: `output "o": value does not match`,
		},
		"output without type": {
			input: `{"version":4,"outputs":{"o":{"value":"x"}}}`, wantErr: `output "o": missing "type"`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := statefile.Read(strings.NewReader(tc.input))
			if err == nil {
				t.Fatalf("Read succeeded, want an error (%s); got %#v", tc.reason, f)
			}
			if tc.wantIs != nil && !errors.Is(err, tc.wantIs) {
				t.Errorf("error %q is not %q", err, tc.wantIs)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not contain %q", err, tc.wantErr)
			}
		})
	}
}

// TestReadTolerates checks inputs that are unusual but valid.
func TestReadTolerates(t *testing.T) {
	tests := map[string]struct {
		reason string
		input  string
	}{
		"unknown fields": {
			reason: "newer producers may add fields",
			input: `{"version":4,"future":{"x":[1]},"outputs":{"o":{"value":1,"type":"number","extra":true}},"resources":[` +
				`{"mode":"managed","type":"t","name":"n","each":"list","provider":"provider[\"a/b/c\"]","instances":[` +
				`{"index_key":0,"schema_version":0,"attributes":{},"identity":{"x":1}}]}]}`,
		},
		"check results": {
			reason: "check results are read and dropped",
			input:  `{"version":4,"check_results":[{"object_kind":"resource","config_addr":"t.n","status":"pass","objects":null}]}`,
		},
		"version as string": {
			reason: "a quoted number is still a number to encoding/json",
			input:  `{"version":"4"}`,
		},
		"whole number key in exponent form": {
			input: resourceDoc("", `{"index_key":1e1,"schema_version":0,"attributes":{}}`),
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := statefile.Read(strings.NewReader(tc.input))
			if err != nil {
				t.Fatalf("Read: %v (%s)", err, tc.reason)
			}
			// And what was read can be written and read again.
			if got := mustRoundTrip(t, f); !cmp.Equal(f, got, cmpOpts) {
				t.Errorf("round trip changed the file: %s", cmp.Diff(f, got, cmpOpts))
			}
		})
	}
}

func TestWriteNil(t *testing.T) {
	if err := statefile.Write(nil, &bytes.Buffer{}); err == nil {
		t.Fatal("Write(nil) succeeded")
	}
}
