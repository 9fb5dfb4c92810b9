package genconfig

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// Resource returns the resource block for an object of type typ named
// name, with value val (of schema's implied type, or null), formatted as
// "terraform fmt" would. providerRef, when not empty, is written as the
// provider argument (the import block's).
func Resource(typ, name, providerRef string, schema *configschema.Block, val cty.Value) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource %q %q {\n", typ, name)
	if providerRef != "" {
		fmt.Fprintf(&b, "  provider = %s\n", providerRef)
	}
	writeBody(&b, 2, schema, val)
	b.WriteString("}\n")
	return string(hclwrite.Format([]byte(b.String())))
}

// writeBody writes a block body's arguments and then its nested blocks,
// each in name order.
func writeBody(b *strings.Builder, indent int, schema *configschema.Block, val cty.Value) {
	for _, name := range sortedKeys(schema.Attributes) {
		a := schema.Attributes[name]
		if !a.Required && !a.Optional {
			continue // computed-only: the provider sets it
		}
		writeAttribute(b, indent, name, a, attrOf(val, name))
	}
	for _, name := range sortedKeys(schema.BlockTypes) {
		writeBlocks(b, indent, name, schema.BlockTypes[name], attrOf(val, name))
	}
}

// writeAttribute writes one argument. A nested-attribute type is written
// as an object (or a list, set or map of objects) leaving out its
// computed-only attributes.
func writeAttribute(b *strings.Builder, indent int, name string, a *configschema.Attribute, v cty.Value) {
	pad := strings.Repeat(" ", indent)
	switch {
	case a.Sensitive || v.ContainsMarked():
		fmt.Fprintf(b, "%s%s = null # sensitive\n", pad, name)
	case a.NestedType != nil && !v.IsNull() && v.IsKnown():
		fmt.Fprintf(b, "%s%s = ", pad, name)
		writeNested(b, indent, a.NestedType, v)
		b.WriteString("\n")
	default:
		fmt.Fprintf(b, "%s%s = %s\n", pad, name, valueText(v))
	}
}

// writeNested writes a nested-attribute value after "name = ".
func writeNested(b *strings.Builder, indent int, obj *configschema.Object, v cty.Value) {
	pad := strings.Repeat(" ", indent)
	switch obj.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		writeObject(b, indent, obj, v)
	case configschema.NestingMap:
		b.WriteString("{\n")
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			fmt.Fprintf(b, "%s  %s = ", pad, keyText(k))
			writeObject(b, indent+2, obj, ev)
			b.WriteString("\n")
		}
		b.WriteString(pad + "}")
	default: // list, set
		b.WriteString("[\n")
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			b.WriteString(pad + "  ")
			writeObject(b, indent+2, obj, ev)
			b.WriteString(",\n")
		}
		b.WriteString(pad + "]")
	}
}

// writeObject writes one object of a nested-attribute type.
func writeObject(b *strings.Builder, indent int, obj *configschema.Object, v cty.Value) {
	if v.IsNull() || !v.IsKnown() {
		b.WriteString("null")
		return
	}
	b.WriteString("{\n")
	for _, name := range sortedKeys(obj.Attributes) {
		a := obj.Attributes[name]
		if !a.Required && !a.Optional {
			continue
		}
		writeAttribute(b, indent+2, name, a, attrOf(v, name))
	}
	b.WriteString(strings.Repeat(" ", indent) + "}")
}

// writeBlocks writes the nested blocks of one type: none for a null or
// empty value, one per element otherwise, with the map key as label.
func writeBlocks(b *strings.Builder, indent int, name string, nb *configschema.NestedBlock, v cty.Value) {
	if v.IsNull() || !v.IsKnown() {
		return
	}
	pad := strings.Repeat(" ", indent)
	one := func(label string, ev cty.Value) {
		if ev.IsNull() {
			return
		}
		fmt.Fprintf(b, "%s%s%s {\n", pad, name, label)
		writeBody(b, indent+2, &nb.Block, ev)
		b.WriteString(pad + "}\n")
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		one("", v)
	case configschema.NestingMap:
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			one(" "+valueText(k), ev)
		}
	default:
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			one("", ev)
		}
	}
}

// attrOf is attribute name of object v, or null when v has none.
func attrOf(v cty.Value, name string) cty.Value {
	if v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return v.GetAttr(name)
}

// keyText is a map key as an object key: bare when it is an identifier,
// as hclwrite writes a map value's keys.
func keyText(k cty.Value) string {
	if s := k.AsString(); hclsyntax.ValidIdentifier(s) {
		return s
	}
	return valueText(k)
}

// valueText is v as an HCL expression; unknown (never in an imported
// object) is written as null.
func valueText(v cty.Value) string {
	if !v.IsWhollyKnown() {
		return "null"
	}
	return strings.TrimSpace(string(hclwrite.TokensForValue(v).Bytes()))
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
