package command

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
)

// backendConfigFlag is init's repeatable -backend-config: KEY=VALUE or
// the path of a file of arguments (HCL, or JSON when it ends in .json).
type backendConfigFlag struct {
	items []string
	set   bool
}

func (f *backendConfigFlag) String() string { return "" }

func (f *backendConfigFlag) Set(v string) error {
	f.items = append(f.items, v)
	f.set = true
	return nil
}

// backendOverrides reads the -backend-config items for a backend of type
// typ, later items replacing earlier ones, as Terraform merges them over
// the block. A single empty item (-backend-config="") is Terraform's way
// of asking for none: the block alone, even over a record made with
// overrides. nil means none were given.
func (m *Meta) backendOverrides(typ string, f backendConfigFlag) (map[string]backendArg, diags.Diagnostics) {
	if !f.set {
		return nil, nil
	}
	out := map[string]backendArg{}
	if len(f.items) == 1 && f.items[0] == "" {
		return out, nil
	}
	schema := backendAttrs(typ)
	var ds diags.Diagnostics
	for _, item := range f.items {
		name, raw, isPair := strings.Cut(item, "=")
		if !isPair {
			args, fds := m.backendConfigFile(typ, item)
			ds = ds.Append(fds)
			for k, v := range args {
				out[k] = v
			}
			continue
		}
		ty, ok := schema[name]
		if !ok {
			ds = ds.Append(diags.Errorf("Invalid backend configuration argument",
				"The backend configuration argument %q given on the command line is not expected for the selected backend type.", name))
			continue
		}
		// The value never goes into a range or a message: it may be a
		// secret.
		rng := hcl.Range{Filename: backendFlagSource + name}
		v, d := backendFlagValue(typ, name, raw, ty, rng)
		if d != nil {
			ds = ds.Append(*d)
			continue
		}
		if !v.IsNull() {
			out[name] = backendArg{val: v, name: rng, expr: rng}
		}
	}
	return out, ds
}

// backendFlagValue is KEY=VALUE's value: a primitive argument takes the
// text as a string converted to its type, any other is an HCL expression
// (endpoints={s3="http://..."}), as in Terraform.
func backendFlagValue(typ, name, raw string, ty cty.Type, rng hcl.Range) (cty.Value, *diags.Diagnostic) {
	if ty.IsPrimitiveType() {
		return convertBackendArg(typ, name, cty.StringVal(raw), ty, rng)
	}
	expr, hd := hclsyntax.ParseExpression([]byte(raw), rng.Filename, hcl.InitialPos)
	if hd.HasErrors() {
		d := diags.Errorf("Invalid backend configuration value",
			"The -backend-config value of %s is not a valid expression.", name)
		return cty.NilVal, &d
	}
	v, hd := expr.Value(nil)
	if hd.HasErrors() {
		d := diags.Errorf("Invalid backend configuration value",
			"The -backend-config value of %s must be a constant.", name)
		return cty.NilVal, &d
	}
	return convertBackendArg(typ, name, v, ty, rng)
}

// backendConfigFile reads a -backend-config file (relative to the working
// directory): its arguments must all be the backend's.
func (m *Meta) backendConfigFile(typ, path string) (map[string]backendArg, diags.Diagnostics) {
	full := path
	if !filepath.IsAbs(full) {
		full = filepath.Join(m.Dir, full)
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to read the backend configuration file",
			"The -backend-config file %s cannot be read: %s", path, err)}
	}
	p := hclparse.NewParser()
	var f *hcl.File
	var hd hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, hd = p.ParseJSON(src, path)
	} else {
		f, hd = p.ParseHCL(src, path)
	}
	if hd.HasErrors() {
		return nil, diags.Diagnostics{}.Append(hd)
	}
	return decodeBackendBody(typ, f.Body)
}

// backendFlagSource begins the file name of an argument given as
// -backend-config=KEY=VALUE.
const backendFlagSource = "-backend-config="

// backendConfigHelp is -backend-config's entry in init's help.
const backendConfigHelp = "Configuration to merge with the backend block: KEY=VALUE, or a file of arguments (repeatable; later ones win). " +
	"The arguments are recorded in .terraform/terraform.tfstate, as Terraform records them; -backend-config=\"\" merges none."
