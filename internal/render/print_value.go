package render

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// quote returns s as a double-quoted Go string literal, the quoting
// Terraform's renderer uses for strings and map keys.
func quote(s string) string { return strconv.Quote(s) }

// numberText formats a number as Terraform's plan renderer does: read as a
// float64 (plans travel through JSON), printed in full without exponent.
func numberText(v cty.Value) string {
	f := float(v)
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		// Whole numbers print as integers either way; this is faster.
		return strconv.FormatInt(int64(f), 10)
	}
	return big.NewFloat(f).Text('f', -1)
}

// primitiveText formats a bool, number or null.
func (pr *printer) primitiveText(v cty.Value, ty cty.Type) string {
	if isNil(v) {
		return pr.null
	}
	if ty == cty.Bool {
		return strconv.FormatBool(v.True())
	}
	return numberText(v)
}

func (pr *printer) printPrimitive(w *strings.Builder, d *diff, ind int, o printOpts) {
	if d.ty == cty.String {
		pr.printString(w, d, ind, o)
		return
	}
	before, after := pr.primitiveText(d.before, d.ty), pr.primitiveText(d.after, d.ty)
	switch d.action {
	case plans.Create:
		w.WriteString(after)
	case plans.Delete:
		w.WriteString(before)
		w.WriteString(pr.nullSuffix(d.action, o))
	case plans.NoOp:
		w.WriteString(before)
	default:
		w.WriteString(before)
		w.WriteString(" ")
		w.WriteString(pr.arrow)
		w.WriteString(" ")
		w.WriteString(after)
	}
	w.WriteString(pr.forcesReplacement(d.replace, o))
}

// strView is how a string value is shown: null, as decoded JSON
// (jsonencode(...)), as a heredoc when it spans lines, or quoted.
type strView struct {
	s         string
	json      cty.Value // cty.NilVal unless s is a JSON object or array
	multiline bool
	null      bool
}

func (pr *printer) viewString(v cty.Value) strView {
	if isNil(v) {
		return strView{s: pr.null, null: true}
	}
	s := v.AsString()
	if strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[") {
		var decoded any
		if err := json.Unmarshal([]byte(s), &decoded); err == nil {
			return strView{s: s, json: jsonToCty(decoded)}
		}
	}
	if strings.Contains(s, "\n") {
		return strView{s: strings.TrimSpace(s), multiline: true}
	}
	return strView{s: s}
}

// simple returns a one-line string quoted, or null.
func (v strView) simple() string {
	if v.null {
		return v.s
	}
	return quote(v.s)
}

func (pr *printer) printString(w *strings.Builder, d *diff, ind int, o printOpts) {
	var lines []string
	switch d.action {
	case plans.Create, plans.NoOp:
		after := pr.viewString(d.after)
		if after.json != cty.NilVal {
			before := strView{}
			if d.action == plans.NoOp {
				before = after
			}
			pr.printJSONString(w, d, ind, o, before, after)
			return
		}
		if !after.multiline {
			w.WriteString(after.simple())
			w.WriteString(pr.forcesReplacement(d.replace, o))
			return
		}
		lines = pr.heredocLines(after.s, ind, o)
	case plans.Delete:
		before := pr.viewString(d.before)
		if before.null {
			// "null -> null" would read oddly, so no suffix here.
			w.WriteString(before.simple())
			w.WriteString(pr.forcesReplacement(d.replace, o))
			return
		}
		if before.json != cty.NilVal {
			pr.printJSONString(w, d, ind, o, before, strView{})
			return
		}
		if !before.multiline {
			w.WriteString(before.simple())
			w.WriteString(pr.nullSuffix(d.action, o))
			w.WriteString(pr.forcesReplacement(d.replace, o))
			return
		}
		lines = pr.heredocLines(before.s, ind, o)
	default:
		before, after := pr.viewString(d.before), pr.viewString(d.after)
		if before.json != cty.NilVal && after.json != cty.NilVal {
			pr.printJSONString(w, d, ind, o, before, after)
			return
		}
		if before.json != cty.NilVal || after.json != cty.NilVal {
			// JSON on one side only: the old string, then the new one.
			tc := &diff{kind: kindTypeChange, action: d.action, replace: d.replace,
				inner: &diff{kind: kindPrimitive, action: plans.Delete, ty: cty.String, before: d.before},
				other: &diff{kind: kindPrimitive, action: plans.Create, ty: cty.String, after: d.after}}
			pr.print(w, tc, ind, o)
			return
		}
		if !before.multiline && !after.multiline {
			w.WriteString(before.simple())
			w.WriteString(" ")
			w.WriteString(pr.arrow)
			w.WriteString(" ")
			w.WriteString(after.simple())
			w.WriteString(pr.forcesReplacement(d.replace, o))
			return
		}
		lines = pr.heredocEdit(before.s, after.s, ind, o)
	}
	w.WriteString("<<-EOT")
	w.WriteString(pr.forcesReplacement(d.replace, o))
	w.WriteByte('\n')
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	w.WriteString(indent(ind))
	w.WriteString(pr.symbol(plans.NoOp, o))
	w.WriteString("EOT")
	w.WriteString(pr.nullSuffix(d.action, o))
}

// heredocLines returns the lines of s indented for a heredoc at level ind.
func (pr *printer) heredocLines(s string, ind int, o printOpts) []string {
	prefix := indent(ind+1) + pr.symbol(plans.NoOp, o)
	parts := strings.Split(s, "\n")
	for i, l := range parts {
		parts[i] = prefix + l
	}
	return parts
}

// heredocEdit returns the lines of the line-by-line edit from one string
// to another, each marked kept, deleted or added.
func (pr *printer) heredocEdit(before, after string, ind int, o printOpts) []string {
	bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
	var lines []string
	line := func(a plans.Action, s string) {
		lines = append(lines, indent(ind+1)+pr.symbol(a, o)+s)
	}
	eq := func(x, y string) bool { return x == y }
	never := func(string) bool { return false }
	walkEdit(bl, al, eq, never, func(b, a int) {
		switch {
		case b >= len(bl):
			line(plans.Create, al[a])
		case a >= len(al):
			line(plans.Delete, bl[b])
		default:
			line(plans.NoOp, bl[b])
		}
	})
	return lines
}

// printJSONString writes a string holding JSON as jsonencode(...) of the
// diff between the decoded values. A change in whitespace alone is said to
// be one, since the decoded values do not differ.
func (pr *printer) printJSONString(w *strings.Builder, d *diff, ind int, o printOpts, before, after strView) {
	c := change{
		before: before.json, after: after.json,
		beforeExplicit: d.action != plans.Create, afterExplicit: d.action != plans.Delete,
		relevant: everything,
	}
	jd := diffJSON(c)
	jo := o.clone()
	jo.noNullSuffix = true
	act := d.action
	var note, replace string
	if jd.action == plans.NoOp && d.action == plans.Update {
		note = " # whitespace changes"
		if d.replace {
			note = " # whitespace changes force replacement"
		}
		jo.showUnchanged = true
		act = plans.NoOp
	} else {
		replace = pr.forcesReplacement(d.replace, o)
	}
	var body strings.Builder
	pr.print(&body, jd, ind+1, jo)
	if d.action == plans.Create || d.action == plans.Delete {
		// The whole string is created or deleted; the symbol before the
		// jsonencode already says so.
		act = plans.NoOp
	}
	if !strings.Contains(body.String(), "\n") {
		w.WriteString("jsonencode(")
		w.WriteString(body.String())
		w.WriteString(")")
		w.WriteString(note)
		w.WriteString(replace)
		return
	}
	w.WriteString("jsonencode(")
	w.WriteString(note)
	w.WriteByte('\n')
	w.WriteString(indent(ind + 1))
	w.WriteString(pr.symbol(act, o))
	w.WriteString(body.String())
	w.WriteString(replace)
	w.WriteByte('\n')
	w.WriteString(indent(ind))
	w.WriteString(pr.symbol(plans.NoOp, o))
	w.WriteString(")")
	w.WriteString(pr.nullSuffix(d.action, o))
}

// jsonToCty converts a value decoded by encoding/json to cty: objects,
// tuples, float64 numbers, strings, bools and null.
func jsonToCty(v any) cty.Value {
	switch v := v.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType)
	case bool:
		return cty.BoolVal(v)
	case float64:
		return cty.NumberFloatVal(v)
	case string:
		return cty.StringVal(v)
	case []any:
		if len(v) == 0 {
			return cty.EmptyTupleVal
		}
		out := make([]cty.Value, len(v))
		for i, e := range v {
			out[i] = jsonToCty(e)
		}
		return cty.TupleVal(out)
	case map[string]any:
		if len(v) == 0 {
			return cty.EmptyObjectVal
		}
		out := make(map[string]cty.Value, len(v))
		for k, e := range v {
			out[k] = jsonToCty(e)
		}
		return cty.ObjectVal(out)
	}
	return cty.NullVal(cty.DynamicPseudoType)
}
