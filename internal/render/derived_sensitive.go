package render

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// A mirror is an attribute whose value is, by the resource type's
// definition, another attribute's value: terraform_data's output is its
// input. Terraform 1.5.7 marks only what configuration marks and what the
// schema declares sensitive, so after apply a sensitive input's copy in
// output is stored, and shown by `terraform show` and `state show`, in
// plain text. Cairn's human renderings go further: a mirror is shown as
// sensitive wherever its source is.
//
// The rule is for people only. The JSON documents (`show -json`, the plan
// document's sensitive_values) and the state's sensitive_attributes keep
// exactly Terraform's marks, so tools, and Terraform reading Cairn's files,
// see the same data.
type mirror struct {
	from, to string
}

// resourceType names a resource type of one provider.
type resourceType struct {
	provider addrs.Provider
	typ      string
}

// mirrors lists, per resource type, the attributes that mirror others.
var mirrors = map[resourceType][]mirror{
	{addrs.NewBuiltInProvider("terraform"), "terraform_data"}: {{from: "input", to: "output"}},
}

// humanMarks returns an object value of a resource type as human
// renderings show it: with the sensitive mark on every attribute the schema
// declares sensitive, and on every part of a mirror whose source part is
// sensitive. A mirror that is not known yet is left as it is: it reads
// "(known after apply)".
func humanMarks(v cty.Value, schema *configschema.Block, provider addrs.Provider, typ string) cty.Value {
	v = withSchemaMarks(v, schema)
	ms := mirrors[resourceType{provider, typ}]
	if len(ms) == 0 || !isKnownObject(v) || !anySourceMarked(v, ms) {
		return v
	}
	plain, pvm := v.UnmarkDeepWithPaths()
	for _, m := range ms {
		pvm = append(pvm, mirroredMarks(plain, pvm, m)...)
	}
	return plain.MarkWithPaths(pvm)
}

// humanChangeMarks is humanMarks for the two sides of a change. A mirror
// that was wholly sensitive before and is not known after stays sensitive,
// so the plan does not announce that it will stop being sensitive: it will
// be sensitive again once known.
func humanChangeMarks(before, after cty.Value, schema *configschema.Block, provider addrs.Provider, typ string) (cty.Value, cty.Value) {
	before = humanMarks(before, schema, provider, typ)
	after = humanMarks(after, schema, provider, typ)
	if !isKnownObject(before) || !isKnownObject(after) {
		return before, after
	}
	for _, m := range mirrors[resourceType{provider, typ}] {
		if !after.Type().HasAttribute(m.to) || !before.Type().HasAttribute(m.to) {
			continue
		}
		if !after.GetAttr(m.to).IsKnown() && before.GetAttr(m.to).IsMarked() {
			plain, pvm := after.UnmarkDeepWithPaths()
			pvm = append(pvm, cty.PathValueMarks{Path: cty.GetAttrPath(m.to), Marks: cty.NewValueMarks(configschema.SensitiveMark)})
			after = plain.MarkWithPaths(pvm)
		}
	}
	return before, after
}

// anySourceMarked reports whether a mirror's source holds a mark: only
// then is there anything to do, and looking at the sources alone keeps the
// common case (nothing sensitive) cheap on large plans.
func anySourceMarked(v cty.Value, ms []mirror) bool {
	if v.IsMarked() {
		return true
	}
	for _, m := range ms {
		if v.Type().HasAttribute(m.from) && holdsMark(v.GetAttr(m.from)) {
			return true
		}
	}
	return false
}

// holdsMark is cty's ContainsMarked without its path bookkeeping, which
// allocates at every level: this runs for every change of a large plan.
func holdsMark(v cty.Value) bool {
	if v.IsMarked() {
		return true
	}
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	switch ty := v.Type(); {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if holdsMark(v.GetAttr(name)) {
				return true
			}
		}
	case ty.IsCollectionType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); holdsMark(e) {
				return true
			}
		}
	}
	return false
}

func isKnownObject(v cty.Value) bool {
	return v != cty.NilVal && !v.IsNull() && v.IsKnown() && v.Type().IsObjectType()
}

// mirroredMarks returns the sensitive marks of m.from's parts moved to the
// same parts of m.to, when m.to is known.
func mirroredMarks(plain cty.Value, pvm []cty.PathValueMarks, m mirror) []cty.PathValueMarks {
	ty := plain.Type()
	if !ty.IsObjectType() || !ty.HasAttribute(m.from) || !ty.HasAttribute(m.to) || !plain.GetAttr(m.to).IsKnown() {
		return nil
	}
	var out []cty.PathValueMarks
	for _, pm := range pvm {
		if len(pm.Path) == 0 || !pm.Marks.Has(configschema.SensitiveMark) || pm.Path[0] != (cty.GetAttrStep{Name: m.from}) {
			continue
		}
		p := append(cty.GetAttrPath(m.to), pm.Path[1:]...)
		out = append(out, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(configschema.SensitiveMark)})
	}
	return out
}
