package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// FormatValue returns v in Terraform language syntax, as `terraform
// output NAME`, the "Outputs:" section of `terraform apply` and `terraform
// console` print values: lists, sets and maps wrapped in tolist, toset and
// tomap so their type shows, multi-line strings as heredocs, nulls with
// their type. indent is the column the value starts at; nested lines are
// indented two spaces more per level.
//
// Unknown values print as "(known after apply)" and values marked
// sensitive as "(sensitive value)", so a marked value never leaks.
func FormatValue(v cty.Value, indent int) string {
	var b strings.Builder
	formatValue(&b, v, indent)
	return b.String()
}

func formatValue(b *strings.Builder, v cty.Value, indent int) {
	if !v.IsKnown() {
		b.WriteString("(known after apply)")
		return
	}
	if v.HasMark(configschema.SensitiveMark) {
		b.WriteString("(sensitive value)")
		return
	}
	v, _ = v.Unmark()
	ty := v.Type()
	if v.IsNull() {
		b.WriteString(typedNull(ty))
		return
	}
	switch {
	case ty == cty.String:
		s := v.AsString()
		if strings.Contains(s, "\n") {
			writeHeredoc(b, s, indent)
			return
		}
		b.WriteString(strconv.Quote(s))
	case ty == cty.Number:
		b.WriteString(v.AsBigFloat().Text('f', -1))
	case ty == cty.Bool:
		b.WriteString(strconv.FormatBool(v.True()))
	case ty.IsObjectType():
		formatMapping(b, v, indent)
	case ty.IsTupleType():
		formatSequence(b, v, indent)
	case ty.IsListType():
		b.WriteString("tolist(")
		formatSequence(b, v, indent)
		b.WriteString(")")
	case ty.IsSetType():
		b.WriteString("toset(")
		formatSequence(b, v, indent)
		b.WriteString(")")
	case ty.IsMapType():
		b.WriteString("tomap(")
		formatMapping(b, v, indent)
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "%#v", v)
	}
}

// typedNull writes a null so that its type shows.
func typedNull(ty cty.Type) string {
	switch {
	case ty == cty.DynamicPseudoType:
		return "null"
	case ty == cty.String:
		return "tostring(null)"
	case ty == cty.Number:
		return "tonumber(null)"
	case ty == cty.Bool:
		return "tobool(null)"
	case ty.IsListType():
		return fmt.Sprintf("tolist(null) /* of %s */", ty.ElementType().FriendlyName())
	case ty.IsSetType():
		return fmt.Sprintf("toset(null) /* of %s */", ty.ElementType().FriendlyName())
	case ty.IsMapType():
		return fmt.Sprintf("tomap(null) /* of %s */", ty.ElementType().FriendlyName())
	}
	return fmt.Sprintf("null /* %s */", ty.FriendlyName())
}

// writeHeredoc writes a multi-line string as a heredoc whose delimiter
// (EOT, with underscores added until no line equals it) cannot end it
// early. Indented values use the <<- form.
func writeHeredoc(b *strings.Builder, s string, indent int) {
	lines := strings.Split(s, "\n")
	delim := "EOT"
	for clash := true; clash; {
		clash = false
		for _, l := range lines {
			if strings.TrimSpace(l) == delim {
				delim += "_"
				clash = true
				break
			}
		}
	}
	op := "<<"
	if indent > 0 {
		op = "<<-"
	}
	pad := strings.Repeat(" ", indent)
	b.WriteString(op)
	b.WriteString(delim)
	for _, l := range lines {
		b.WriteByte('\n')
		b.WriteString(pad)
		b.WriteString(l)
	}
	b.WriteByte('\n')
	b.WriteString(pad)
	b.WriteString(delim)
}

func formatMapping(b *strings.Builder, v cty.Value, indent int) {
	b.WriteByte('{')
	pad := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		n++
		b.WriteByte('\n')
		b.WriteString(pad)
		formatValue(b, k, indent+2)
		b.WriteString(" = ")
		formatValue(b, e, indent+2)
	}
	if n > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", indent))
	}
	b.WriteByte('}')
}

func formatSequence(b *strings.Builder, v cty.Value, indent int) {
	b.WriteByte('[')
	pad := strings.Repeat(" ", indent+2)
	n := 0
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		n++
		b.WriteByte('\n')
		b.WriteString(pad)
		formatValue(b, e, indent+2)
		b.WriteByte(',')
	}
	if n > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(" ", indent))
	}
	b.WriteByte(']')
}
