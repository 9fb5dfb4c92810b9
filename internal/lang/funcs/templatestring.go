package funcs

import (
	"errors"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// templateStringName names a template string in its parse errors.
const templateStringName = "<templatestring argument>"

// makeTemplateStringFunc builds templatestring(template, vars) (Terraform
// 1.9, OpenTofu 1.7): the string template rendered as makeTemplateFunc
// renders a template, as templatefile renders a file.
//
// Terraform accepts only a reference (local.t, data.x.body) as the
// template, to steer authors to ordinary template expressions; OpenTofu
// accepts any string, and so does Cairn, so every configuration either
// tool runs runs here.
//
// A marked template's parse errors would quote it, so they say nothing.
func makeTemplateStringFunc(funcs map[string]function.Function) function.Function {
	return makeTemplateFunc(templateKind{
		name:  "templatestring",
		param: "template",
		load: func(tmpl string, marks cty.ValueMarks) (hclsyntax.Expression, error) {
			expr, err := parseTemplate([]byte(tmpl), templateStringName)
			if err != nil && len(marks) > 0 {
				return nil, errors.New(hiddenReason)
			}
			return expr, err
		},
	}, funcs)
}
