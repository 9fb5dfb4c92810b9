package command

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
)

// collectVariables gathers raw root variable values from every source, in
// Terraform's order of precedence (later wins): TF_VAR_ environment
// variables, terraform.tfvars, terraform.tfvars.json, *.auto.tfvars and
// *.auto.tfvars.json in lexical order, then -var and -var-file options in
// the order given.
func (m *Meta) collectVariables(flags []varFlag) (map[string]eval.RawVariable, diags.Diagnostics) {
	out, ds := m.gatherVariables(flags)
	m.rawVars = out
	return out, ds
}

// gatherVariables is collectVariables without remembering the result.
func (m *Meta) gatherVariables(flags []varFlag) (map[string]eval.RawVariable, diags.Diagnostics) {
	out := map[string]eval.RawVariable{}
	var ds diags.Diagnostics
	for _, kv := range m.Environ() {
		name, val, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(name, "TF_VAR_") && len(name) > len("TF_VAR_") {
			n := strings.TrimPrefix(name, "TF_VAR_")
			out[n] = eval.RawVariable{Source: eval.FromEnv, Raw: val, Origin: "environment variable " + name}
		}
	}
	for _, f := range m.autoVarFiles() {
		ds = ds.Append(m.loadVarFile(filepath.Join(m.Dir, f), f, out))
	}
	return out, ds.Append(m.flagVariables(flags, out))
}

// flagVariables adds the values of -var and -var-file options to out, in
// the order given.
func (m *Meta) flagVariables(flags []varFlag, out map[string]eval.RawVariable) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, f := range flags {
		if f.file {
			path := f.val
			if !filepath.IsAbs(path) {
				path = filepath.Join(m.Dir, path)
			}
			ds = ds.Append(m.loadVarFile(path, f.val, out))
			continue
		}
		name, val, ok := strings.Cut(f.val, "=")
		if !ok || name == "" {
			ds = ds.Append(diags.Errorf("Invalid -var option",
				"The given -var option %q is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".", f.val))
			continue
		}
		out[strings.TrimSpace(name)] = eval.RawVariable{Source: eval.FromCLI, Raw: val, Origin: "-var option"}
	}
	return ds
}

// autoVarFiles lists the variable files loaded without being named.
func (m *Meta) autoVarFiles() []string {
	var files []string
	for _, f := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if st, err := os.Stat(filepath.Join(m.Dir, f)); err == nil && !st.IsDir() {
			files = append(files, f)
		}
	}
	entries, _ := os.ReadDir(m.Dir)
	var auto []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && (strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json")) {
			auto = append(auto, n)
		}
	}
	sort.Strings(auto)
	return append(files, auto...)
}

// loadVarFile parses a .tfvars (or .tfvars.json) file into raw values.
func (m *Meta) loadVarFile(path, name string, out map[string]eval.RawVariable) diags.Diagnostics {
	src, err := configs.ReadSourceFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return diags.Diagnostics{diags.Errorf("Failed to read variables file", "Given variables file %s does not exist.", name)}
	}
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read variables file", "Error while reading %s: %s.", name, err)}
	}
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	m.sources[name] = src
	if d := configs.CheckSource(name, src); d != nil {
		return diags.Diagnostics{}.Append(d)
	}
	p := hclparse.NewParser()
	var f *hcl.File
	var hd hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		f, hd = p.ParseJSON(src, name)
	} else {
		f, hd = p.ParseHCL(src, name)
	}
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	if hd.HasErrors() {
		return ds
	}
	attrs, hd := f.Body.JustAttributes()
	ds = ds.Append(hd)
	for n, a := range attrs {
		out[n] = eval.RawVariable{Source: eval.FromFile, Expr: a.Expr, Origin: name}
	}
	return ds
}
