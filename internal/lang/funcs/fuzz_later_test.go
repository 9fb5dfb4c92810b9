package funcs

import (
	"testing"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
)

// FuzzTemplateString renders arbitrary templates with templatestring
// (Terraform 1.9, OpenTofu 1.7), whose template usually comes from
// outside the configuration (an object's attribute): any text either
// renders or fails with an error, never a panic, including templates
// nested deeper than hcl's parser can take.
func FuzzTemplateString(f *testing.F) {
	for _, s := range []string{
		"Hi ${name}!", "%{ for i in items }${i}%{ endfor }", "${", "%{ if true }x%{ else }y%{ endif }",
		"${templatestring(\"a\", {})}", "${upper(name)}${items[5]}", "$${x}", "${{a=1}}",
		"${" + string(make([]byte, 0)) + "}", "%{ for k, v in {a=1} }${k}${v}%{ endfor ~}",
	} {
		f.Add(s)
	}
	fn := Table(f.TempDir())["templatestring"]
	vars := cty.ObjectVal(map[string]cty.Value{
		"name":  cty.StringVal("x"),
		"items": cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)}),
	})
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || !utf8.ValidString(src) {
			t.Skip()
		}
		_, _ = fn.Call([]cty.Value{cty.StringVal(src), vars})
	})
}

// FuzzDecodeTFVars decodes arbitrary .tfvars content with
// provider::terraform::decode_tfvars: it returns an object or an error,
// never panics, and what it decodes encode_tfvars encodes again.
func FuzzDecodeTFVars(f *testing.F) {
	for _, s := range []string{
		"a = 1\n", "a = [true, \"x\"]\nb = { c = 2.5 }\n", "a = var.x\n", "b {}\n", "a = \n",
		"a = \"${1}\"\n", "a = <<EOT\nx\nEOT\n", "a = upper(\"x\")\n", "\"a\" = 1", "a = [[[[[[1]]]]]]",
	} {
		f.Add(s)
	}
	tbl := Table(f.TempDir())
	dec, enc := tbl["provider::terraform::decode_tfvars"], tbl["provider::terraform::encode_tfvars"]
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || !utf8.ValidString(src) {
			t.Skip()
		}
		v, err := dec.Call([]cty.Value{cty.StringVal(src)})
		if err != nil {
			return
		}
		if !v.Type().IsObjectType() {
			t.Fatalf("decode_tfvars(%q) = %#v, not an object", src, v)
		}
		if _, err := enc.Call([]cty.Value{v}); err != nil && v.IsWhollyKnown() {
			t.Fatalf("encode_tfvars of decode_tfvars(%q) = %#v failed: %v", src, v, err)
		}
	})
}
