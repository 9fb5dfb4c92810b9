package lang

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

// attrsSchema is a schema without block types, so its bodies may take the
// attributes-only fast path.
func attrsSchema() *configschema.Block {
	return &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"req": {Type: cty.String, Required: true},
		"s":   {Type: cty.String, Optional: true},
		"n":   {Type: cty.Number, Optional: true},
		"b":   {Type: cty.Bool, Optional: true},
		"l":   {Type: cty.List(cty.String), Optional: true},
		"set": {Type: cty.Set(cty.String), Optional: true},
		"m":   {Type: cty.Map(cty.Number), Optional: true},
		"d":   {Type: cty.DynamicPseudoType, Optional: true},
		"o":   {Type: cty.Object(map[string]cty.Type{"a": cty.String, "b": cty.Number}), Optional: true},
		"id":  {Type: cty.String, Computed: true},
		"rules": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
			"port":  {Type: cty.Number, Required: true},
			"proto": {Type: cty.String, Optional: true},
		}}},
	}}
}

// TestAttributesOnlyMatchesHCLDec checks the fast path against hcldec, the
// decoder it stands in for: whenever decodeAttributesOnly answers, its
// value must be exactly hcldec's; when it declines, EvalPrepared must give
// hcldec's value and diagnostics.
func TestAttributesOnlyMatchesHCLDec(t *testing.T) {
	cases := map[string]struct {
		reason    string
		src       string
		wantFast  bool // the fast path answers
		wantDiags []diagView
	}{
		"OnlyRequired": {
			src:      `req = "r"`,
			wantFast: true,
		},
		"Everything": {
			src: `
req = "r"
s   = "x"
n   = "5"
b   = "true"
l   = ["a", 1, var.x]
set = ["a", "a", "b"]
m   = { a = 1, b = "2" }
d   = { x = [1, "a"] }
o   = { a = "x", b = 1 }
id  = "i"
rules = [{ port = 80, proto = "tcp" }]
`,
			wantFast: true,
		},
		"UnknownValues": {
			reason: "Unknowns convert to unknowns of the attribute's type, refinements included.",
			src: `
req = terraform_data.later.id
s   = "prefix-${terraform_data.later.id}"
n   = terraform_data.later.n
l   = [terraform_data.later.id]
d   = terraform_data.later
`,
			wantFast: true,
		},
		"SensitiveValues": {
			reason: "Marks survive decoding either way.",
			src: `
req = var.secret
s   = upper(var.secret)
l   = [var.secret, "plain"]
d   = var.secret
`,
			wantFast: true,
		},
		"Nulls": {
			src: `
req = "r"
s   = null
l   = null
d   = null
`,
			wantFast: true,
		},
		"RequiredNull": {
			reason: "The fast path leaves the unusual case to hcldec, which accepts a null.",
			src:    `req = null`,
		},
		"NestedAttributeOmitsOptional": {
			reason: "Inner optional attributes of a nested attribute may be left out; only hcldec knows, so the fast path declines.",
			src: `
req   = "r"
rules = [{ port = 80 }]
`,
		},
		"MissingRequired": {
			src:       `s = "x"`,
			wantDiags: []diagView{errAt("Missing required argument", "main.tf:1:1")},
		},
		"UnknownArgument": {
			src: `
req   = "r"
color = "red"
`,
			wantDiags: []diagView{errAt("Unsupported argument", "main.tf:3:1")},
		},
		"WrongType": {
			src: `
req = "r"
n   = "many"
`,
			wantDiags: []diagView{errAt("Incorrect attribute value type", "main.tf:3:7")},
		},
		"WrongObjectType": {
			src: `
req = "r"
o   = { a = "x" }
`,
			wantDiags: []diagView{errAt("Incorrect attribute value type", "main.tf:3:7")},
		},
		"EvaluationError": {
			src: `
req = "r"
s   = var.x + 1
`,
			wantDiags: []diagView{errAt("Invalid operand", "main.tf:3:7")},
		},
		"Block": {
			reason: "A body with a block is not attributes-only; hcldec reports the block.",
			src: `
req = "r"
rules {}
`,
			wantDiags: []diagView{errAt("Unsupported block type", "main.tf:3:1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			schema := attrsSchema()
			body := parseBody(t, tc.src)
			s := &Scope{Data: testData(), Funcs: testFuncs}
			pb := PrepareBlock(body, schema)
			ctx, ds := s.EvalContext(pb.References())
			if len(ds) > 0 || len(pb.Diagnostics()) > 0 {
				t.Fatalf("references: %s %s", ds.Error(), pb.Diagnostics().Error())
			}

			wantVal, hd := hcldec.Decode(body, schema.DecoderSpec(), ctx)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(diags.Diagnostics(nil).Append(hd))); diff != "" {
				t.Errorf("%s\nhcldec diagnostics: -want +got:\n%s", tc.reason, diff)
			}

			var fast bool
			if attrs := attributesOnly(body, schema); attrs != nil {
				var got cty.Value
				got, fast = decodeAttributesOnly(attrs, schema, ctx)
				if fast {
					if hd.HasErrors() {
						t.Fatalf("%s\nthe fast path accepted a body hcldec rejects: %s", tc.reason, hd.Error())
					}
					if diff := cmp.Diff(wantVal, got, ctyOpts); diff != "" {
						t.Errorf("%s\nfast path: -hcldec +fast:\n%s", tc.reason, diff)
					}
				}
			}
			if fast != tc.wantFast {
				t.Errorf("%s\nfast path answered: %t, want %t", tc.reason, fast, tc.wantFast)
			}

			got, eds := s.EvalPrepared(pb)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(eds)); diff != "" {
				t.Errorf("%s\nEvalPrepared diagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if hd.HasErrors() {
				wantVal = cty.UnknownVal(schema.ImpliedType())
			}
			if diff := cmp.Diff(wantVal, got, ctyOpts); diff != "" {
				t.Errorf("%s\nEvalPrepared: -hcldec +got:\n%s", tc.reason, diff)
			}
			if errs := got.Type().TestConformance(schema.ImpliedType()); len(errs) > 0 {
				t.Errorf("%s\nresult type %#v is not the schema's", tc.reason, got.Type())
			}
		})
	}
}

func TestAttributesOnly(t *testing.T) {
	withBlocks := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{"a": {Type: cty.String, Optional: true}},
		BlockTypes: map[string]*configschema.NestedBlock{"b": {Nesting: configschema.NestingList}},
	}
	jsonBody := func(t *testing.T, src string) hcl.Body {
		f, ds := json.Parse([]byte(src), "main.tf.json")
		if ds.HasErrors() {
			t.Fatal(ds.Error())
		}
		return f.Body
	}
	cases := map[string]struct {
		reason string
		body   func(t *testing.T) hcl.Body
		schema *configschema.Block
		want   []string
	}{
		"Attributes": {
			body:   func(t *testing.T) hcl.Body { return parseBody(t, "req = 1\ns = 2") },
			schema: attrsSchema(),
			want:   []string{"req", "s"},
		},
		"Empty": {
			body:   func(t *testing.T) hcl.Body { return parseBody(t, "") },
			schema: attrsSchema(),
			want:   []string{},
		},
		"UndeclaredArgument": {
			body:   func(t *testing.T) hcl.Body { return parseBody(t, "req = 1\nx = 2") },
			schema: attrsSchema(),
		},
		"Block": {
			body:   func(t *testing.T) hcl.Body { return parseBody(t, "req = 1\nlifecycle {}") },
			schema: attrsSchema(),
		},
		"SchemaWithBlockTypes": {
			reason: "Block types need hcldec even when the body sets none.",
			body:   func(t *testing.T) hcl.Body { return parseBody(t, "a = 1") },
			schema: withBlocks,
		},
		"JSON": {
			reason: "JSON bodies cannot tell attributes from blocks without a schema.",
			body:   func(t *testing.T) hcl.Body { return jsonBody(t, `{"req": "x"}`) },
			schema: attrsSchema(),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			attrs := attributesOnly(tc.body(t), tc.schema)
			var got []string
			if attrs != nil {
				got = []string{}
				for _, n := range []string{"req", "s", "a"} {
					if _, ok := attrs[n]; ok {
						got = append(got, n)
					}
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
