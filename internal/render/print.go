package render

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
)

// printer writes diff trees as Terraform prints them. It holds the painted
// pieces every node uses, so they are painted once per document.
type printer struct {
	p       painter
	symbols map[plans.Action]string
	toNull  string // " -> null" after a deleted value
	forces  string // " # forces replacement"
	arrow   string // "->" between an old and a new value
	null    string // "null"
}

func newPrinter(p painter) *printer {
	pr := &printer{
		p:       p,
		symbols: map[plans.Action]string{},
		toNull:  p.paint(" [dark_gray]-> null[reset]"),
		forces:  p.paint(" [red]# forces replacement[reset]"),
		arrow:   p.paint("[yellow]->[reset]"),
		null:    p.paint("[dark_gray]null[reset]"),
	}
	for _, a := range []plans.Action{plans.NoOp, plans.Create, plans.Read, plans.Update, plans.DeleteThenCreate, plans.CreateThenDelete, plans.Delete, plans.Forget} {
		pr.symbols[a] = p.paint(actionSymbol(a))
	}
	return pr
}

// actionSymbol is the marker of an action, three columns wide.
func actionSymbol(a plans.Action) string {
	switch a {
	case plans.DeleteThenCreate:
		return "[red]-[reset]/[green]+[reset]"
	case plans.CreateThenDelete:
		return "[green]+[reset]/[red]-[reset]"
	case plans.Create:
		return "  [green]+[reset]"
	case plans.Delete:
		return "  [red]-[reset]"
	case plans.Read:
		return " [cyan]<=[reset]"
	case plans.Update:
		return "  [yellow]~[reset]"
	case plans.NoOp:
		return "   "
	case plans.Forget:
		return " [red].[reset]"
	}
	return "  ?"
}

// printOpts are the settings a node is printed with; most pass down to its
// children, see clone.
type printOpts struct {
	// noNullSuffix drops " -> null" after deleted values: inside a deleted
	// collection only the collection itself says it becomes null.
	noNullSuffix bool
	// forceReplace prints "# forces replacement" on this node even though
	// its diff does not say so: set on the elements of a nested set or map
	// that forces replacement as a whole. It applies to one level only.
	forceReplace bool
	// showUnchanged prints unchanged children instead of counting them in
	// "# (N unchanged attributes hidden)".
	showUnchanged bool
	// noSymbols leaves out the action markers: state is printed this way.
	noSymbols bool
}

// clone returns the options for a child: everything but forceReplace.
func (o printOpts) clone() printOpts {
	o.forceReplace = false
	return o
}

// symbol returns the action marker and a space, or nothing.
func (pr *printer) symbol(a plans.Action, o printOpts) string {
	if o.noSymbols {
		return ""
	}
	return pr.symbols[a] + " "
}

func (pr *printer) nullSuffix(a plans.Action, o printOpts) string {
	if !o.noNullSuffix && a == plans.Delete {
		return pr.toNull
	}
	return ""
}

func (pr *printer) forcesReplacement(replace bool, o printOpts) string {
	if replace || o.forceReplace {
		return pr.forces
	}
	return ""
}

// unchanged is the note that stands for hidden unchanged children.
func (pr *printer) unchanged(noun string, n int) string {
	if n != 1 {
		noun += "s"
	}
	return pr.p.paint(fmt.Sprintf("[dark_gray]# (%d unchanged %s hidden)[reset]", n, noun))
}

// indent returns the leading space of nesting level n.
func indent(n int) string { return strings.Repeat("    ", n) }

// attrName returns name as it may appear before "=": an identifier as is,
// anything else quoted.
func attrName(name string) string {
	if addrs.ValidIdentifier(name) {
		return name
	}
	return quote(name)
}

// print writes d at nesting level ind. The first line continues the
// current line; later lines start with their own indentation.
func (pr *printer) print(w *strings.Builder, d *diff, ind int, o printOpts) {
	switch d.kind {
	case kindPrimitive:
		pr.printPrimitive(w, d, ind, o)
	case kindObject:
		pr.printObject(w, d, ind, o)
	case kindMap:
		pr.printMap(w, d, ind, o)
	case kindList:
		pr.printList(w, d, ind, o)
	case kindSet:
		pr.printSet(w, d, ind, o)
	case kindBlock:
		pr.printBlock(w, d, ind, o)
	case kindSensitive:
		w.WriteString("(sensitive value)")
		w.WriteString(pr.nullSuffix(d.action, o))
		w.WriteString(pr.forcesReplacement(d.replace, o))
	case kindSensitiveBlock:
		pr.printSensitiveBlock(w, d, ind, o)
	case kindUnknown:
		pr.printUnknown(w, d, ind, o)
	case kindWriteOnly:
		w.WriteString("(write-only attribute)")
		w.WriteString(pr.forcesReplacement(d.replace, o))
		w.WriteString(pr.nullSuffix(d.action, o))
	case kindTypeChange:
		o.noNullSuffix = true
		pr.print(w, d.inner, ind, o)
		w.WriteString(" ")
		w.WriteString(pr.arrow)
		w.WriteString(" ")
		pr.print(w, d.other, ind, o)
	}
}

// printUnknown writes "(known after apply)", after the old value when
// there was one.
func (pr *printer) printUnknown(w *strings.Builder, d *diff, ind int, o printOpts) {
	if d.action == plans.Create || d.inner == nil {
		w.WriteString("(known after apply)")
		w.WriteString(pr.forcesReplacement(d.replace, o))
		return
	}
	old := o
	old.noNullSuffix = true
	pr.print(w, d.inner, ind, old)
	w.WriteString(" -> (known after apply)")
	w.WriteString(pr.forcesReplacement(d.replace, o))
}

// warnings returns the notes printed above a value whose sensitivity
// changes, each already indented for level ind except its first line.
func (pr *printer) warnings(d *diff, ind int) []string {
	if d.kind != kindSensitive && d.kind != kindSensitiveBlock {
		return nil
	}
	if d.beforeSensitive == d.afterSensitive || d.inner.action == plans.Create || d.inner.action == plans.Delete {
		return nil
	}
	what := "attribute value"
	if d.kind == kindSensitiveBlock {
		what = "block"
	}
	tmpl := "  # [yellow]Warning[reset]: this %s will be marked as sensitive and will not\n%s  # display in UI output after applying this change."
	if d.beforeSensitive {
		tmpl = "  # [yellow]Warning[reset]: this %s will no longer be marked as sensitive\n%s  # after applying this change."
	}
	s := pr.p.paint(fmt.Sprintf(tmpl, what, indent(ind)))
	if d.kind == kindSensitive && d.inner.action == plans.NoOp {
		s += " The value is unchanged."
	}
	return []string{s}
}

// writeWarnings writes d's warnings as lines at level ind.
func (pr *printer) writeWarnings(w *strings.Builder, d *diff, ind int) {
	for _, s := range pr.warnings(d, ind) {
		w.WriteString(indent(ind))
		w.WriteString(s)
		w.WriteByte('\n')
	}
}
