package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
)

// ConsoleValue formats a value as Terraform 1.5.7's console prints it:
// strings quoted (several lines as a heredoc), numbers in full, object
// and map keys quoted, one element per line indented two spaces, typed
// nulls and collections written as the conversion that makes them
// (tolist, toset, tomap, tostring(null)), "(known after apply)" for an
// unknown value and "(sensitive value)" for a sensitive one, or for a
// string that reveals one of secrets (a provider's unmarked copy of one).
func ConsoleValue(v cty.Value, secrets marks.Secrets) string {
	return consoleValue(marks.HideCopies(v, secrets), 0)
}

func consoleValue(v cty.Value, indent int) string {
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.HasMark(configschema.SensitiveMark):
		return "(sensitive value)"
	case v.IsNull():
		return typedNull(v.Type())
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return consoleString(v.AsString(), indent)
	case ty == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case ty == cty.Bool:
		return strconv.FormatBool(v.True())
	case ty.IsObjectType():
		return consoleMapping(v, indent)
	case ty.IsTupleType():
		return consoleSequence(v, indent)
	case ty.IsListType():
		return "tolist(" + consoleSequence(v, indent) + ")"
	case ty.IsSetType():
		return "toset(" + consoleSequence(v, indent) + ")"
	case ty.IsMapType():
		return "tomap(" + consoleMapping(v, indent) + ")"
	}
	return fmt.Sprintf("%#v", v)
}

// consoleString quotes a one-line string Go-style; a string of several
// lines becomes a heredoc (indented, <<-, when nested) whose delimiter
// grows underscores until no line equals it.
func consoleString(s string, indent int) string {
	lines := strings.Split(s, "\n")
	if len(lines) < 2 {
		return strconv.Quote(s)
	}
	delim := "EOT"
	for clashes(lines, delim) {
		delim += "_"
	}
	op := "<<"
	if indent > 0 {
		op = "<<-"
	}
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	b.WriteString(op + delim)
	for _, l := range lines {
		b.WriteString("\n" + pad + l)
	}
	b.WriteString("\n" + pad + delim)
	return b.String()
}

func clashes(lines []string, delim string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) == delim {
			return true
		}
	}
	return false
}

// consoleMapping writes an object or map, one `"key" = value` per line.
func consoleMapping(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteByte('{')
	pad := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); n++ {
		k, ev := it.Element()
		b.WriteString("\n" + pad + consoleValue(k, indent+2) + " = " + consoleValue(ev, indent+2))
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteByte('}')
	return b.String()
}

// consoleSequence writes a tuple, list or set, one element and a comma
// per line.
func consoleSequence(v cty.Value, indent int) string {
	var b strings.Builder
	b.WriteByte('[')
	pad := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); n++ {
		_, ev := it.Element()
		b.WriteString("\n" + pad + consoleValue(ev, indent+2) + ",")
	}
	if n > 0 {
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	b.WriteByte(']')
	return b.String()
}

// ConsoleType writes a type as the console's type() function shows it:
// type constraint syntax, object attributes sorted, one attribute or
// tuple element per line indented four spaces.
func ConsoleType(ty cty.Type) string {
	var b strings.Builder
	writeConsoleType(&b, ty, 0)
	return b.String()
}

func writeConsoleType(b *strings.Builder, ty cty.Type, indent int) {
	pad := func(n int) string { return strings.Repeat("    ", n) }
	switch {
	case ty == cty.NilType:
		b.WriteString("nil")
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		if len(atys) == 0 {
			b.WriteString("object({})")
			return
		}
		b.WriteString("object({\n")
		for _, name := range slices.Sorted(maps.Keys(atys)) {
			b.WriteString(pad(indent+1) + name + ": ")
			writeConsoleType(b, atys[name], indent+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad(indent) + "})")
	case ty.IsTupleType():
		etys := ty.TupleElementTypes()
		if len(etys) == 0 {
			b.WriteString("tuple([])")
			return
		}
		b.WriteString("tuple([\n")
		for _, ety := range etys {
			b.WriteString(pad(indent + 1))
			writeConsoleType(b, ety, indent+1)
			b.WriteString(",\n")
		}
		b.WriteString(pad(indent) + "])")
	case ty.IsListType() || ty.IsMapType() || ty.IsSetType():
		writeConsoleCollection(b, ty, indent)
	default:
		b.WriteString(ty.FriendlyName())
	}
}

// writeConsoleCollection writes list(...), map(...) or set(...); an
// object or tuple element goes on its own indented line.
func writeConsoleCollection(b *strings.Builder, ty cty.Type, indent int) {
	kind := "list("
	switch {
	case ty.IsMapType():
		kind = "map("
	case ty.IsSetType():
		kind = "set("
	}
	b.WriteString(kind)
	ety := ty.ElementType()
	if !ety.IsObjectType() && !ety.IsTupleType() {
		writeConsoleType(b, ety, indent)
		b.WriteString(")")
		return
	}
	b.WriteString("\n" + strings.Repeat("    ", indent+1))
	writeConsoleType(b, ety, indent+1)
	b.WriteString(",\n" + strings.Repeat("    ", indent) + ")")
}
