package command

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/didyoumean"
)

// backendType is what Cairn knows of one backend type: the arguments its
// schema declares (the types Terraform or OpenTofu give them, which the
// recorded configuration and the hash cover), how to open it, and where
// it keeps its states. Every type goes through the same decoding
// (decodeBackendBody), -backend-config merge and record, so a new type is
// one entry in backendTypeOf.
type backendType struct {
	// attrs are the arguments and their types; a nested attribute
	// (OpenTofu's endpoints = { ... }) is an object type whose attributes
	// are optional.
	attrs map[string]cty.Type
	// open decodes the arguments and opens the backend, its states sealed
	// by enc.
	open func(m *Meta, a backendArgs, enc backends.StateTransform) (backends.Backend, diags.Diagnostics)
	// storage names where the states are kept, so that init copies
	// nothing between two configurations of the same storage. It never
	// holds a secret in a form shown to anyone: it is only compared.
	storage func(m *Meta, a backendArgs) (string, diags.Diagnostics)
	// tofuRecord says .terraform/terraform.tfstate is written in
	// OpenTofu 1.12's layout (no serial, lineage or modules): the type's
	// schema is OpenTofu's, so OpenTofu is the tool sharing the record.
	tofuRecord bool
}

// backendTypeOf is the backend type named typ; false for a type Cairn
// does not have.
func backendTypeOf(typ string) (backendType, bool) {
	switch typ {
	case "local":
		return backendType{attrs: localAttrs(), open: openLocalBackend, storage: localStorage}, true
	case "pg":
		return backendType{attrs: pgAttrs(), open: openPgBackend, storage: pgStorage}, true
	case "s3":
		return backendType{attrs: s3Attrs(), open: openS3Backend, storage: s3Storage, tofuRecord: true}, true
	}
	return backendType{}, false
}

// backendAttrs are the arguments of backend type typ; none for a type
// Cairn does not have.
func backendAttrs(typ string) map[string]cty.Type {
	t, _ := backendTypeOf(typ)
	return t.attrs
}

// backendArg is one argument given to a backend: its value converted to
// the schema's type (never null: a null argument is one left out, as in
// Terraform) and where it was written, for diagnostics.
type backendArg struct {
	val        cty.Value
	name, expr hcl.Range
}

// backendArgs are a backend's arguments as given by its block, merged
// with -backend-config, or rebuilt from the record init left.
type backendArgs struct {
	typ string
	// decl is where a missing argument is reported: the block's type
	// label.
	decl hcl.Range
	args map[string]backendArg
}

// has reports whether name was given.
func (a backendArgs) has(name string) bool {
	_, ok := a.args[name]
	return ok
}

// str is the string argument name; "" when not given.
func (a backendArgs) str(name string) string {
	if v, ok := a.args[name]; ok && v.val.Type() == cty.String {
		return v.val.AsString()
	}
	return ""
}

// boolean is the bool argument name; false when not given.
func (a backendArgs) boolean(name string) bool {
	v, ok := a.args[name]
	return ok && v.val.Type() == cty.Bool && v.val.True()
}

// at is where argument name's value was written; the block's type label
// when it was not given.
func (a backendArgs) at(name string) hcl.Range {
	if v, ok := a.args[name]; ok {
		return v.expr
	}
	return a.decl
}

// diagAt is an error about argument name (the block when it was not
// given). An argument given on the command line, or read back from the
// record init left, has no source to show: the diagnostic says where it
// came from instead.
func (a backendArgs) diagAt(name string, summary, detail string) diags.Diagnostic {
	rng := a.at(name)
	switch {
	case strings.HasPrefix(rng.Filename, backendFlagSource):
		return diags.Errorf(summary, "%s\n\n(%s was given with -backend-config.)", detail, name)
	case rng.Filename == recordFileName():
		return diags.Errorf(summary, "%s\n\n(The backend configuration is the one the last \"cairn init\" recorded in %s.)", detail, rng.Filename)
	}
	return diags.At(rng, summary, detail)
}

// value is the whole configuration as Terraform records it: an object
// with every argument of the schema, null where not given.
func (a backendArgs) value() cty.Value {
	attrs := backendAttrs(a.typ)
	vals := make(map[string]cty.Value, len(attrs))
	for name, ty := range attrs {
		if v, ok := a.args[name]; ok {
			vals[name] = v.val
		} else {
			vals[name] = cty.NullVal(ty.WithoutOptionalAttributesDeep())
		}
	}
	return cty.ObjectVal(vals)
}

// merge returns a with every argument of over replacing a's of the same
// name, as Terraform merges -backend-config over the block.
func (a backendArgs) merge(over map[string]backendArg) backendArgs {
	out := backendArgs{typ: a.typ, decl: a.decl, args: make(map[string]backendArg, len(a.args)+len(over))}
	for name, v := range a.args {
		out.args[name] = v
	}
	for name, v := range over {
		out.args[name] = v
	}
	return out
}

// decodeBackendBody reads the arguments body gives a backend of type typ:
// each must be one of the type's, evaluate without references and convert
// to its type. Values are never quoted in a diagnostic (they may be
// secrets).
func decodeBackendBody(typ string, body hcl.Body) (map[string]backendArg, diags.Diagnostics) {
	schema := backendAttrs(typ)
	hattrs, hd := body.JustAttributes()
	ds := diags.Diagnostics{}.Append(hd)
	names := make([]string, 0, len(hattrs))
	for name := range hattrs {
		names = append(names, name)
	}
	sort.Strings(names)
	out := map[string]backendArg{}
	for _, name := range names {
		a := hattrs[name]
		ty, ok := schema[name]
		if !ok {
			detail := fmt.Sprintf("The %s backend does not take an argument named %q.", typ, name)
			if s := didyoumean.NameSuggestion(name, slices.Sorted(maps.Keys(schema))); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			ds = ds.Append(diags.At(a.NameRange, "Unsupported backend argument", detail))
			continue
		}
		v, vd := a.Expr.Value(nil)
		if ds = ds.Append(vd); vd.HasErrors() {
			continue
		}
		v, d := convertBackendArg(typ, name, v, ty, a.Expr.Range())
		if d != nil {
			ds = ds.Append(*d)
			continue
		}
		if !v.IsNull() {
			out[name] = backendArg{val: v, name: a.NameRange, expr: a.Expr.Range()}
		}
	}
	return out, ds
}

// convertBackendArg converts v to the argument's type ty.
func convertBackendArg(typ, name string, v cty.Value, ty cty.Type, rng hcl.Range) (cty.Value, *diags.Diagnostic) {
	bad := func() (cty.Value, *diags.Diagnostic) {
		d := diags.At(rng, "Invalid backend "+name,
			fmt.Sprintf("The %s backend's %s must be a %s.", typ, name, ty.WithoutOptionalAttributesDeep().FriendlyName()))
		return cty.NilVal, &d
	}
	if !v.IsWhollyKnown() {
		return bad()
	}
	if v.IsNull() {
		return v, nil
	}
	c, err := convert.Convert(v, ty)
	if err != nil {
		return bad()
	}
	return c, nil
}

// decodeBackendArgs reads blk's arguments merged with the -backend-config
// overrides over (nil: none).
func decodeBackendArgs(blk *configs.Backend, over map[string]backendArg) (backendArgs, diags.Diagnostics) {
	args, ds := decodeBackendBody(blk.Type, blk.Config)
	return backendArgs{typ: blk.Type, decl: blk.TypeRange, args: args}.merge(over), ds
}
