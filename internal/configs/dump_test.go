package configs

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// dumpModule renders a module as stable text for golden files: every
// declaration with where it was declared, sorted by address.
func dumpModule(m *Module) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }

	w("sources: %s", strings.Join(slices.Sorted(maps.Keys(m.Sources)), " "))
	for _, vc := range m.RequiredVersions {
		w("required_version %q at %s", vc.Constraint, posString(vc.DeclRange))
	}
	for _, name := range slices.Sorted(maps.Keys(m.RequiredProviders)) {
		rp := m.RequiredProviders[name]
		w("required_provider %s = %s %v at %s", name, rp.Source, constraints(rp.Versions), posString(rp.DeclRange))
	}
	if be := m.Backend; be != nil {
		w("backend %s at %s", be.Type, posString(be.TypeRange))
	}
	for _, key := range slices.Sorted(maps.Keys(m.ProviderConfigs)) {
		p := m.ProviderConfigs[key]
		w("provider %s = %s at %s", key, p.Source, posString(p.NameRange))
	}
	for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
		dumpVariable(w, m.Variables[name])
	}
	for _, name := range slices.Sorted(maps.Keys(m.Locals)) {
		l := m.Locals[name]
		w("local %s = %s at %s", name, exprText(m, l.Expr), posString(l.NameRange))
	}
	for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
		o := m.Outputs[name]
		w("output %s = %s sensitive=%t at %s", name, exprText(m, o.Expr), o.Sensitive, posString(o.NameRange))
	}
	for _, rs := range []map[string]*Resource{m.ManagedResources, m.DataResources} {
		for _, key := range slices.Sorted(maps.Keys(rs)) {
			dumpResource(w, m, key, rs[key])
		}
	}
	return b.String()
}

func dumpVariable(w func(string, ...any), v *Variable) {
	def := "(required)"
	if v.Default != nilValue {
		js, err := ctyjson.Marshal(v.Default, v.Default.Type())
		def = string(js)
		if err != nil {
			def = err.Error()
		}
	}
	w("variable %s: %s default=%s nullable=%t sensitive=%t validations=%d at %s",
		v.Name, typeexpr.TypeString(v.Type), def, v.Nullable, v.Sensitive, len(v.Validations), posString(v.NameRange))
}

func dumpResource(w func(string, ...any), m *Module, key string, r *Resource) {
	w("%s: provider %s at %s", key, r.ProviderConfigAddr(), posString(r.NameRange))
	if r.Count != nil {
		w("  count = %s", exprText(m, r.Count))
	}
	if r.ForEach != nil {
		w("  for_each = %s", exprText(m, r.ForEach))
	}
	if len(r.DependsOn) > 0 {
		w("  depends_on = %v", traversalStrings(r.DependsOn))
	}
	if mr := r.Managed; mr != nil && (mr.CreateBeforeDestroySet || mr.PreventDestroy ||
		mr.IgnoreAllChanges || len(mr.IgnoreChanges) > 0 || len(mr.ReplaceTriggeredBy) > 0) {
		w("  lifecycle cbd=%t prevent_destroy=%t ignore_all=%t ignore=%v replace_triggers=%d",
			mr.CreateBeforeDestroy, mr.PreventDestroy, mr.IgnoreAllChanges,
			traversalStrings(mr.IgnoreChanges), len(mr.ReplaceTriggeredBy))
	}
	w("  config %v", configView(r.Config))
}

func constraints(vcs []VersionConstraint) []string {
	var out []string
	for _, vc := range vcs {
		out = append(out, vc.Constraint)
	}
	return out
}
