package funcs

import (
	"errors"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// makeTemplateFileFunc builds templatefile(path, vars): the file at path,
// read as file() reads it (relative to baseDir), rendered as
// makeTemplateFunc renders a template. A sensitive path makes the result
// sensitive and its errors silent about the path.
func makeTemplateFileFunc(baseDir string, funcs map[string]function.Function) function.Function {
	return makeTemplateFunc(templateKind{
		name:    "templatefile",
		param:   "path",
		withPos: true,
		load: func(path string, marks cty.ValueMarks) (hclsyntax.Expression, error) {
			return loadTemplateFile(baseDir, path, marks.Has(configschema.SensitiveMark))
		},
	}, funcs)
}

// loadTemplateFile reads and parses the template file at path. Template
// diagnostics name the file; a sensitive path must not appear in them,
// so such a template gets a placeholder name and its errors say nothing.
func loadTemplateFile(baseDir, path string, sensitivePath bool) (hclsyntax.Expression, error) {
	filename := path
	if sensitivePath {
		filename = "(sensitive template path)"
	}
	src, err := readModuleFile(baseDir, path)
	if err == nil {
		var expr hclsyntax.Expression
		if expr, err = parseTemplate(src, filename); err == nil {
			return expr, nil
		}
	}
	if sensitivePath {
		return nil, errors.New(hiddenReason)
	}
	return nil, err
}
