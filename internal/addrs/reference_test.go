package addrs

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// refView is the comparable form of a parsed reference: the subject, its
// source range as "line:col-line:col" and the remaining traversal as text.
type refView struct {
	Subject   Referenceable
	Range     string
	Remaining string
}

// refDiagView is what these tests compare of a ParseRef diagnostic.
type refDiagView struct {
	Summary string
	Range   string
}

func rangeString(r hcl.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
}

func traversalText(t hcl.Traversal) string {
	if len(t) == 0 {
		return ""
	}
	return string(hclwrite.TokensForTraversal(t).Bytes())
}

func mustTraversal(t *testing.T, src string) hcl.Traversal {
	t.Helper()
	tr, ds := hclsyntax.ParseTraversalAbs([]byte(src), "test.tf", hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if ds.HasErrors() {
		t.Fatalf("ParseTraversalAbs(%q): %s", src, ds.Error())
	}
	return tr
}

func TestParseRef(t *testing.T) {
	cases := map[string]struct {
		reason    string
		input     string
		want      *refView
		wantDiags []refDiagView
	}{
		"Variable": {
			input: "var.foo",
			want:  &refView{Subject: InputVariable{Name: "foo"}, Range: "1:1-1:8"},
		},
		"VariableWithAttributes": {
			reason: "Steps after the variable name are an attribute path into its value.",
			input:  `var.foo.bar["baz"][0]`,
			want:   &refView{Subject: InputVariable{Name: "foo"}, Range: "1:1-1:8", Remaining: `.bar["baz"][0]`},
		},
		"Local": {
			input: "local.x.y",
			want:  &refView{Subject: LocalValue{Name: "x"}, Range: "1:1-1:8", Remaining: ".y"},
		},
		"CountIndex": {
			input: "count.index",
			want:  &refView{Subject: CountAttr{Name: "index"}, Range: "1:1-1:12"},
		},
		"CountOtherAttribute": {
			reason: "ParseRef accepts any count attribute; the evaluator rejects the name.",
			input:  "count.foo",
			want:   &refView{Subject: CountAttr{Name: "foo"}, Range: "1:1-1:10"},
		},
		"EachKey": {
			input: "each.key",
			want:  &refView{Subject: ForEachAttr{Name: "key"}, Range: "1:1-1:9"},
		},
		"EachValueAttribute": {
			input: "each.value.name",
			want:  &refView{Subject: ForEachAttr{Name: "value"}, Range: "1:1-1:11", Remaining: ".name"},
		},
		"PathModule": {
			input: "path.module",
			want:  &refView{Subject: PathAttr{Name: "module"}, Range: "1:1-1:12"},
		},
		"TerraformWorkspace": {
			input: "terraform.workspace",
			want:  &refView{Subject: TerraformAttr{Name: "workspace"}, Range: "1:1-1:20"},
		},
		"Self": {
			input: "self",
			want:  &refView{Subject: Self{}, Range: "1:1-1:5"},
		},
		"SelfAttribute": {
			reason: "Like every other reference, the range covers the referenced object (self), not the attribute path after it.",
			input:  "self.id",
			want:   &refView{Subject: Self{}, Range: "1:1-1:5", Remaining: ".id"},
		},
		"DataResource": {
			input: "data.aws_ami.ubuntu",
			want:  &refView{Subject: data("aws_ami", "ubuntu"), Range: "1:1-1:20"},
		},
		"DataResourceAttribute": {
			input: "data.aws_ami.ubuntu.id",
			want:  &refView{Subject: data("aws_ami", "ubuntu"), Range: "1:1-1:20", Remaining: ".id"},
		},
		"DataResourceInstance": {
			input: `data.x.y["k"].id`,
			want:  &refView{Subject: data("x", "y").Instance(StringKey("k")), Range: "1:1-1:14", Remaining: ".id"},
		},
		"EphemeralResource": {
			reason: "ephemeral.TYPE.NAME names an ephemeral block (Terraform 1.10), like data.TYPE.NAME.",
			input:  "ephemeral.random_password.p.result",
			want:   &refView{Subject: Resource{Mode: EphemeralResourceMode, Type: "random_password", Name: "p"}, Range: "1:1-1:28", Remaining: ".result"},
		},
		"EphemeralResourceInstance": {
			input: `ephemeral.x.y[0]`,
			want:  &refView{Subject: Resource{Mode: EphemeralResourceMode, Type: "x", Name: "y"}.Instance(IntKey(0)), Range: "1:1-1:17"},
		},
		"EphemeralTypeOnly": {
			input:     "ephemeral.x",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:12"}},
		},
		"ManagedResource": {
			input: "aws_instance.web",
			want:  &refView{Subject: managed("aws_instance", "web"), Range: "1:1-1:17"},
		},
		"ManagedResourceAttribute": {
			input: "aws_instance.web.id",
			want:  &refView{Subject: managed("aws_instance", "web"), Range: "1:1-1:17", Remaining: ".id"},
		},
		"ManagedResourceIntIndex": {
			input: "aws_instance.web[0].id",
			want:  &refView{Subject: managed("aws_instance", "web").Instance(IntKey(0)), Range: "1:1-1:20", Remaining: ".id"},
		},
		"ManagedResourceStringIndex": {
			input: `aws_instance.web["a"]`,
			want:  &refView{Subject: managed("aws_instance", "web").Instance(StringKey("a")), Range: "1:1-1:22"},
		},
		"ManagedResourceFractionalIndex": {
			reason: "An index that is not a valid key stays in Remaining for evaluation to report.",
			input:  "aws_instance.web[1.5]",
			want:   &refView{Subject: managed("aws_instance", "web"), Range: "1:1-1:17", Remaining: "[1.5]"},
		},
		"OnSecondLine": {
			input: "\n  var.x",
			want:  &refView{Subject: InputVariable{Name: "x"}, Range: "2:3-2:8"},
		},

		"BareVar": {
			input:     "var",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:4"}},
		},
		"BareLocal": {
			input:     "local",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:6"}},
		},
		"BareCount": {
			input:     "count",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:6"}},
		},
		"VarIndex": {
			reason:    "The diagnostic points at the step that is wrong.",
			input:     `var["x"]`,
			wantDiags: []refDiagView{{"Invalid reference", "1:4-1:9"}},
		},
		"BareData": {
			input:     "data",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:5"}},
		},
		"DataTypeOnly": {
			input:     "data.x",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:7"}},
		},
		"DataIndexedName": {
			input:     `data.x["y"]`,
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:12"}},
		},
		"Module": {
			input: "module.x",
			want:  &refView{Subject: ModuleCall{Name: "x"}, Range: "1:1-1:9"},
		},
		"ModuleOutput": {
			input: "module.x.out.attr",
			want:  &refView{Subject: ModuleCallOutput{Call: ModuleCall{Name: "x"}, Name: "out"}, Range: "1:1-1:13", Remaining: ".attr"},
		},
		"ModuleInstanceOutput": {
			reason: "Which instance is meant is left to evaluation; the whole call is the subject.",
			input:  `module.x["k"].out`,
			want:   &refView{Subject: ModuleCall{Name: "x"}, Range: "1:1-1:9", Remaining: `["k"].out`},
		},
		"BareModule": {
			input:     "module",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:7"}},
		},
		"ResourcePrefix": {
			reason: "resource.TYPE.NAME is TYPE.NAME, as in Terraform 1.5.7; the range starts at resource.",
			input:  "resource.a.b.attr",
			want:   &refView{Subject: Resource{Mode: ManagedResourceMode, Type: "a", Name: "b"}, Range: "1:1-1:13", Remaining: ".attr"},
		},
		"ResourcePrefixInstance": {
			input: `resource.a.b["k"].attr`,
			want:  &refView{Subject: ResourceInstance{Resource: Resource{Mode: ManagedResourceMode, Type: "a", Name: "b"}, Key: StringKey("k")}, Range: "1:1-1:18", Remaining: ".attr"},
		},
		"ResourcePrefixNoName": {
			reason:    "Terraform 1.5.7: the resource object must be followed by two attribute names.",
			input:     "resource.a",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:11"}},
		},
		"BareResourcePrefix": {
			input:     "resource",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:9"}},
		},
		"ResourcePrefixIndexed": {
			input:     "resource.a[0].b",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:16"}},
		},
		"BareResourceType": {
			input:     "aws_instance",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:13"}},
		},
		"ResourceTypeIndexed": {
			input:     "aws_instance[0]",
			wantDiags: []refDiagView{{"Invalid reference", "1:1-1:16"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ref, ds := ParseRef(mustTraversal(t, tc.input))
			var gotDiags []refDiagView
			for _, d := range ds {
				if d.Severity != hcl.DiagError {
					t.Errorf("diagnostic %q has severity %v, want error", d.Summary, d.Severity)
				}
				if d.Subject == nil {
					t.Errorf("diagnostic %q has no subject", d.Summary)
					continue
				}
				gotDiags = append(gotDiags, refDiagView{d.Summary, rangeString(*d.Subject)})
			}
			if diff := cmp.Diff(tc.wantDiags, gotDiags); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			var got *refView
			if ref != nil {
				got = &refView{Subject: ref.Subject, Range: rangeString(ref.SourceRange), Remaining: traversalText(ref.Remaining)}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nreference: -want +got:\n%s", tc.reason, diff)
			}
			if ref != nil && ref.SourceRange.Filename != "test.tf" {
				t.Errorf("SourceRange filename is %q, want test.tf", ref.SourceRange.Filename)
			}
		})
	}
}

func TestReferenceableStringRoundTrip(t *testing.T) {
	subjects := []Referenceable{
		InputVariable{Name: "x"},
		LocalValue{Name: "y"},
		CountAttr{Name: "index"},
		ForEachAttr{Name: "key"},
		ForEachAttr{Name: "value"},
		PathAttr{Name: "module"},
		PathAttr{Name: "root"},
		PathAttr{Name: "cwd"},
		TerraformAttr{Name: "workspace"},
		Self{},
		managed("aws_instance", "web"),
		data("aws_ami", "ubuntu"),
		managed("a", "b").Instance(IntKey(3)),
		managed("a", "b").Instance(StringKey("x\"${y}\n")),
		data("a", "b").Instance(StringKey("k")),
	}
	for _, s := range subjects {
		t.Run(s.String(), func(t *testing.T) {
			ref, ds := ParseRef(mustTraversal(t, s.String()))
			if ds.HasErrors() {
				t.Fatalf("ParseRef(%q): %s", s.String(), ds.Error())
			}
			if diff := cmp.Diff(s, ref.Subject); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
			if len(ref.Remaining) != 0 {
				t.Errorf("Remaining = %q, want nothing", traversalText(ref.Remaining))
			}
		})
	}
}
