package render

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/plans"
)

// importantAttribute reports whether an attribute is always shown, changed
// or not, because it tells the reader which object this is.
func importantAttribute(name string) bool {
	return name == "id" || name == "name" || name == "tags"
}

// longestName returns the width of the longest name as printed, for
// aligning the "=" of sibling attributes.
func longestName(es []entry, name func(string) string) int {
	n := 0
	for _, e := range es {
		n = max(n, len(name(e.name)))
	}
	return n
}

// writeAttr writes one "name = value" line of an object or block.
func (pr *printer) writeAttr(w *strings.Builder, e entry, width, ind int, o printOpts) {
	pr.writeWarnings(w, e.d, ind+1)
	w.WriteString(indent(ind + 1))
	w.WriteString(pr.symbol(e.d.action, o))
	fmt.Fprintf(w, "%-*s = ", width, attrName(e.name))
	pr.print(w, e.d, ind+1, o)
	w.WriteByte('\n')
}

// writeAttrs writes the attributes of an object or block: important ones
// always, unchanged ones only when asked, else counted. It returns how
// many were hidden.
func (pr *printer) writeAttrs(w *strings.Builder, es []entry, ind int, o, childOpts printOpts) int {
	width := longestName(es, attrName)
	hidden := 0
	for _, e := range es {
		if importantAttribute(e.name) {
			io := childOpts.clone()
			io.showUnchanged = true
			pr.writeAttr(w, e, width, ind, io)
			continue
		}
		if e.d.action == plans.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		pr.writeAttr(w, e, width, ind, childOpts)
	}
	return hidden
}

// writeHidden writes the note counting hidden unchanged children.
func (pr *printer) writeHidden(w *strings.Builder, noun string, n, ind int, o printOpts) {
	if n == 0 {
		return
	}
	w.WriteString(indent(ind + 1))
	w.WriteString(pr.symbol(plans.NoOp, o))
	w.WriteString(pr.unchanged(noun, n))
	w.WriteByte('\n')
}

// writeClose writes the closing bracket of a collection at level ind.
func (pr *printer) writeClose(w *strings.Builder, bracket string, d *diff, ind int, o printOpts) {
	w.WriteString(indent(ind))
	w.WriteString(pr.symbol(plans.NoOp, o))
	w.WriteString(bracket)
	w.WriteString(pr.nullSuffix(d.action, o))
}

// printObject writes an object. Inside a plain object type only the object
// says it becomes null; attributes of a nested object each say so.
func (pr *printer) printObject(w *strings.Builder, d *diff, ind int, o printOpts) {
	if len(d.entries) == 0 {
		w.WriteString("{}")
		w.WriteString(pr.nullSuffix(d.action, o))
		w.WriteString(pr.forcesReplacement(d.replace, o))
		return
	}
	childOpts := o.clone()
	childOpts.noNullSuffix = !d.nested
	w.WriteString("{")
	w.WriteString(pr.forcesReplacement(d.replace, o))
	w.WriteByte('\n')
	hidden := pr.writeAttrs(w, d.entries, ind, o, childOpts)
	pr.writeHidden(w, "attribute", hidden, ind, o)
	pr.writeClose(w, "}", d, ind, o)
}

// printMap writes a map with quoted keys. A nested map that forces
// replacement says so on each element instead of on itself.
func (pr *printer) printMap(w *strings.Builder, d *diff, ind int, o printOpts) {
	replaceSelf := d.replace && !d.nested
	if len(d.entries) == 0 {
		w.WriteString("{}")
		w.WriteString(pr.nullSuffix(d.action, o))
		w.WriteString(pr.forcesReplacement(replaceSelf, o))
		return
	}
	width := longestName(d.entries, quote)
	eo := o.clone()
	eo.noNullSuffix = d.action == plans.Delete || d.nested
	eo.forceReplace = d.replace && d.nested
	w.WriteString("{")
	w.WriteString(pr.forcesReplacement(replaceSelf, o))
	w.WriteByte('\n')
	hidden := 0
	for _, e := range d.entries {
		if e.d.action == plans.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		pr.writeWarnings(w, e.d, ind+1)
		w.WriteString(indent(ind + 1))
		w.WriteString(pr.symbol(e.d.action, eo))
		if d.nested {
			w.WriteString(quote(e.name))
		} else {
			fmt.Fprintf(w, "%-*s", width, quote(e.name))
		}
		w.WriteString(" = ")
		pr.print(w, e.d, ind+1, eo)
		if e.d.kind == kindObject {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	pr.writeHidden(w, "element", hidden, ind, o)
	pr.writeClose(w, "}", d, ind, o)
}

// printList writes a list. Plain lists show context: the unchanged element
// just before and just after each change, with the rest counted; nested
// lists show changed elements only.
func (pr *printer) printList(w *strings.Builder, d *diff, ind int, o printOpts) {
	if len(d.elems) == 0 {
		w.WriteString("[]")
		w.WriteString(pr.nullSuffix(d.action, o))
		w.WriteString(pr.forcesReplacement(d.replace, o))
		return
	}
	eo := o.clone()
	eo.noNullSuffix = true
	uo := o.clone()
	uo.showUnchanged = true
	context := !d.nested

	w.WriteString("[")
	w.WriteString(pr.forcesReplacement(d.replace, o))
	w.WriteByte('\n')
	var skipped []*diff
	showNext := false
	for _, e := range d.elems {
		if e.action == plans.NoOp && !showNext && !o.showUnchanged {
			skipped = append(skipped, e)
			continue
		}
		showNext = false
		opts := eo
		if context {
			if len(skipped) > 1 {
				pr.writeHidden(w, "element", len(skipped)-1, ind, opts)
			}
			if len(skipped) > 0 {
				pr.writeElem(w, skipped[len(skipped)-1], ind, uo)
			}
			skipped = nil
			if e.action == plans.NoOp {
				opts = uo
			} else {
				showNext = true
			}
		}
		pr.writeWarnings(w, e, ind+1)
		pr.writeElem(w, e, ind, opts)
	}
	pr.writeHidden(w, "element", len(skipped), ind, o)
	pr.writeClose(w, "]", d, ind, o)
}

// writeElem writes one element line of a list or set.
func (pr *printer) writeElem(w *strings.Builder, e *diff, ind int, o printOpts) {
	w.WriteString(indent(ind + 1))
	w.WriteString(pr.symbol(e.action, o))
	pr.print(w, e, ind+1, o)
	w.WriteString(",\n")
}

// printSet writes a set: changed elements, unchanged ones counted. A nested
// set that forces replacement says so on each element.
func (pr *printer) printSet(w *strings.Builder, d *diff, ind int, o printOpts) {
	replaceSelf := d.replace && !d.nested
	if len(d.elems) == 0 {
		w.WriteString("[]")
		w.WriteString(pr.nullSuffix(d.action, o))
		w.WriteString(pr.forcesReplacement(replaceSelf, o))
		return
	}
	eo := o.clone()
	eo.noNullSuffix = true
	eo.forceReplace = d.replace && d.nested
	w.WriteString("[")
	w.WriteString(pr.forcesReplacement(replaceSelf, o))
	w.WriteByte('\n')
	hidden := 0
	for _, e := range d.elems {
		if e.action == plans.NoOp && !o.showUnchanged {
			hidden++
			continue
		}
		pr.writeWarnings(w, e, ind+1)
		pr.writeElem(w, e, ind, eo)
	}
	pr.writeHidden(w, "element", hidden, ind, o)
	pr.writeClose(w, "]", d, ind, o)
}
