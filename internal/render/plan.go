package render

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/parallel"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// Plan writes a plan as Terraform 1.5.7 shows it: what `terraform show
// PLANFILE` prints, which is also the body of `terraform plan` between the
// refresh progress lines and the note about saving the plan. That is: the
// objects changed outside of Terraform (drift) when the plan holds any, the
// legend of action symbols, each resource change with its attribute diff,
// the "Plan: X to add, Y to change, Z to destroy." summary and the changes
// to outputs; or the "No changes." message.
//
// Every resource change must have a schema in schemas; a missing one is an
// internal error and nothing is written. Errors writing to w are returned.
func Plan(w io.Writer, p *plans.Plan, schemas providers.Schemas, opts Options) error {
	doc, err := newPlanDoc(p, schemas, opts.Secrets)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	doc.write(bw, newPrinter(opts.painter()), opts.width())
	return bw.Flush()
}

// planDoc is a plan with every diff computed, ready to print.
type planDoc struct {
	mode    plans.Mode
	errored bool
	changes []resourceDiff
	drift   []resourceDiff
	outputs []outputDiff
	// empty is true when nothing at all changes, not even a no-op
	// resource's diff: drift is then not worth showing.
	empty bool
	// canApply: applying would do something (plans.Plan.CanApply).
	canApply bool
}

// resourceDiff is one resource change and its diff.
type resourceDiff struct {
	change *plans.ResourceInstanceChange
	diff   *diff
}

// outputDiff is one output change and its diff.
type outputDiff struct {
	name string
	diff *diff
}

// newPlanDoc computes the plan's diffs; strings that reveal a secret of
// the plan or of extra are shown as sensitive. The changes shown are marked
// with their own secrets first, and what that finds is part of the plan's
// secrets (planSecrets), so each value is walked for marks once.
func newPlanDoc(p *plans.Plan, schemas providers.Schemas, extra *marks.Known) (*planDoc, error) {
	doc := &planDoc{mode: p.Mode, errored: p.Errored, empty: true, canApply: p.CanApply()}
	var hidden []*plans.ResourceInstanceChange
	for _, c := range p.Changes {
		if (c.Action == plans.NoOp && c.Importing == nil && !c.Moved()) || (c.Action == plans.Delete && c.Addr.Resource.Resource.Mode == addrs.DataResourceMode) {
			// A no-op is not shown, and forgetting a data resource is
			// bookkeeping, not a change: neither needs a diff.
			hidden = append(hidden, c)
			continue
		}
		doc.changes = append(doc.changes, resourceDiff{change: c})
	}
	errs := make([]error, len(doc.changes))
	own := make([]ownChange, len(doc.changes))
	parallel.ForEach(len(doc.changes), func(i int) {
		own[i], errs[i] = ownResourceChange(doc.changes[i].change, schemas)
	})
	secrets := planSecrets(p, schemas, extra, hidden, own)
	parallel.ForEach(len(doc.changes), func(i int) {
		if errs[i] == nil {
			doc.changes[i].diff, errs[i] = diffOwnChange(doc.changes[i].change, own[i], schemas, everything, secrets)
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		if ch := doc.changes[i].change; doc.changes[i].diff.action != plans.NoOp || ch.Importing != nil || ch.Moved() {
			doc.empty = false
		}
	}
	for _, o := range p.Outputs {
		d := diffOutputChange(o, secrets)
		if d.action != plans.NoOp {
			doc.empty = false
		}
		doc.outputs = append(doc.outputs, outputDiff{o.Name, d})
	}
	sort.Slice(doc.outputs, func(i, j int) bool { return doc.outputs[i].name < doc.outputs[j].name })
	drift, err := driftChanges(p, schemas)
	if err != nil {
		return nil, err
	}
	for _, c := range drift {
		d, err := diffResourceChange(c, schemas, everything, secrets)
		if err != nil {
			return nil, err
		}
		doc.drift = append(doc.drift, resourceDiff{c, d})
	}
	return doc, nil
}

// resourceSchema returns the schema of the resource type of addr.
func resourceSchema(schemas providers.Schemas, provider addrs.Provider, addr addrs.AbsResourceInstance) (*configschema.Block, int64, error) {
	r := addr.Resource.Resource
	schema, version := schemas.ResourceTypeSchema(provider, r.Mode, r.Type)
	if schema == nil {
		return nil, 0, fmt.Errorf("no schema for %s in provider %s", addr, provider)
	}
	return schema, version, nil
}

// diffResourceChange computes the diff of a resource change against its
// schema, sensitive values marked as people see them (humanMarks).
func diffResourceChange(c *plans.ResourceInstanceChange, schemas providers.Schemas, relevant pathSet, secrets marks.Secrets) (*diff, error) {
	own, err := ownResourceChange(c, schemas)
	if err != nil {
		return nil, err
	}
	return diffOwnChange(c, own, schemas, relevant, secrets)
}

// ownResourceChange is the change's two sides with their own human marks
// (ownChangeMarks).
func ownResourceChange(c *plans.ResourceInstanceChange, schemas providers.Schemas) (ownChange, error) {
	schema, _, err := resourceSchema(schemas, c.Provider.Provider, c.Addr)
	if err != nil {
		return ownChange{}, err
	}
	cAfter := c.After
	if c.Action == plans.Forget {
		// Nothing happens to the object: Terraform shows it unchanged.
		cAfter = c.Before
	}
	return ownChangeMarks(c.Before, cAfter, schema), nil
}

// diffOwnChange is diffResourceChange from the change's own marks.
func diffOwnChange(c *plans.ResourceInstanceChange, own ownChange, schemas providers.Schemas, relevant pathSet, secrets marks.Secrets) (*diff, error) {
	schema, _, err := resourceSchema(schemas, c.Provider.Provider, c.Addr)
	if err != nil {
		return nil, err
	}
	before, after := own.withRunSecrets(schema, secrets)
	ch := newChange(before, after, false, false, pathSet{paths: c.RequiredReplace}, relevant)
	return diffBlock(ch, schema), nil
}

// withSchemaMarks returns v with the sensitive mark on every attribute the
// schema declares sensitive, besides the marks it already has.
func withSchemaMarks(v cty.Value, schema *configschema.Block) cty.Value {
	if v == cty.NilVal || !schema.HasSensitive() {
		return v
	}
	plain, pvm := v.UnmarkDeepWithPaths()
	for _, p := range schema.SensitivePaths(plain) {
		pvm = append(pvm, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(configschema.SensitiveMark)})
	}
	return plain.MarkWithPaths(pvm)
}

// diffOutputChange computes the diff of an output change. Outputs are
// dynamically typed and sensitive as a whole or not at all: for people, a
// side that reveals one of secrets is sensitive too.
func diffOutputChange(o *plans.OutputChange, secrets marks.Secrets) *diff {
	c := newChange(unmarkDeep(o.Before), unmarkDeep(o.After), false, false, pathSet{}, everything)
	c.beforeSensitive = o.Sensitive || revealsSecret(o.Before, secrets)
	c.afterSensitive = o.Sensitive || revealsSecret(o.After, secrets)
	return diffJSON(c)
}

// unmarkDeep returns v without marks; cty.NilVal stays as it is.
func unmarkDeep(v cty.Value) cty.Value {
	if v == cty.NilVal || !v.ContainsMarked() {
		return v
	}
	v, _ = v.UnmarkDeep()
	return v
}

// counts tallies the planned actions for the legend and the summary.
type counts map[plans.Action]int

func (doc *planDoc) counts() counts {
	n := counts{}
	for _, rd := range doc.changes {
		if rd.change.Action != plans.NoOp {
			n[rd.change.Action]++
		}
	}
	return n
}

// moves counts the changes whose object moved, whatever else they do.
func (doc *planDoc) moves() int {
	n := 0
	for _, rd := range doc.changes {
		if rd.change.Moved() {
			n++
		}
	}
	return n
}

// imports counts the changes that import, whatever else they do.
func (doc *planDoc) imports() int {
	n := 0
	for _, rd := range doc.changes {
		if rd.change.Importing != nil {
			n++
		}
	}
	return n
}

func (n counts) add() int {
	return n[plans.Create] + n[plans.DeleteThenCreate] + n[plans.CreateThenDelete]
}
func (n counts) change() int { return n[plans.Update] }
func (n counts) destroy() int {
	return n[plans.Delete] + n[plans.DeleteThenCreate] + n[plans.CreateThenDelete]
}

// write prints the document.
func (doc *planDoc) write(w *bufio.Writer, pr *printer, width int) {
	p := pr.p
	drifted := doc.writeDrift(w, pr, width)
	n, imports := doc.counts(), doc.imports()
	outputs := doc.outputLines(pr)

	moves := doc.moves()
	if len(n) == 0 && imports == 0 && moves == 0 && len(outputs) == 0 {
		doc.writeNoChanges(w, p, width, drifted)
		return
	}
	if drifted {
		w.WriteString(HorizontalRule(Options{Color: p.on, Width: width}))
		w.WriteString("\n")
	}
	if len(n) > 0 {
		doc.writeLegend(w, p, n, width)
	}
	// A plan that only moves objects lists the moves and a summary of
	// zeros, as Terraform's does, without the legend.
	if len(n) > 0 || imports > 0 || moves > 0 {
		doc.writeChanges(w, pr)
		doc.writeSummary(w, p, n, imports)
	}
	if len(outputs) > 0 {
		w.WriteString("\nChanges to Outputs:\n")
		w.WriteString(strings.Join(outputs, "\n"))
		w.WriteString("\n")
		if len(n) == 0 {
			w.WriteString(wordWrap("\nYou can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure.", width))
			w.WriteString("\n")
		}
	}
}

// writeLegend explains the symbols of the actions the plan holds.
func (doc *planDoc) writeLegend(w *bufio.Writer, p painter, n counts, width int) {
	w.WriteString(wordWrap("\nTerraform used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", width))
	w.WriteString("\n")
	for _, a := range []plans.Action{plans.Create, plans.Update, plans.Delete, plans.DeleteThenCreate, plans.CreateThenDelete, plans.Read, plans.Forget} {
		if n[a] > 0 {
			w.WriteString(p.paint(legend[a]))
			w.WriteString("\n")
		}
	}
}

// writeChanges writes each resource change with its diff: every action
// but a no-op, and a no-op that imports.
func (doc *planDoc) writeChanges(w *bufio.Writer, pr *printer) {
	if doc.errored {
		w.WriteString("\nTerraform planned the following actions, but then encountered a problem:\n")
	} else {
		w.WriteString("\nTerraform will perform the following actions:\n")
	}
	texts := make([]string, len(doc.changes))
	parallel.ForEach(len(doc.changes), func(i int) {
		if rd := doc.changes[i]; shown(rd.change) {
			var b strings.Builder
			writeResourceDiff(&b, pr, rd, planned)
			texts[i] = b.String()
		}
	})
	for i, rd := range doc.changes {
		if !shown(rd.change) {
			continue
		}
		w.WriteString("\n")
		w.WriteString(texts[i])
		w.WriteString("\n")
	}
}

// shown reports whether a planned change is listed: a no-op is only when
// it imports or moves.
func shown(c *plans.ResourceInstanceChange) bool {
	return c.Action != plans.NoOp || c.Importing != nil || c.Moved()
}

// writeSummary writes the "Plan: ..." line, worded as the UI stream's
// change_summary: imports lead it and forgets end it only when there are
// some.
func (doc *planDoc) writeSummary(w *bufio.Writer, p painter, n counts, imports int) {
	sum := UIChangeSummary{Import: imports, Add: n.add(), Change: n.change(), Remove: n.destroy(), Forget: doc.forgets(), Operation: "plan"}
	// The text holds only words and counts, so painting it is safe.
	w.WriteString(p.paint("\n[bold]Plan:[reset]" + strings.TrimPrefix(sum.text(), "Plan:") + "\n"))
}

// forgets counts the managed objects the plan drops from state.
func (doc *planDoc) forgets() int {
	n := 0
	for _, rd := range doc.changes {
		c := rd.change
		if c.Action == plans.Forget && c.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			n++
		}
	}
	return n
}

// legend describes each action symbol.
var legend = map[plans.Action]string{
	plans.Create:           "  [green]+[reset] create",
	plans.Update:           "  [yellow]~[reset] update in-place",
	plans.Delete:           "  [red]-[reset] destroy",
	plans.DeleteThenCreate: "[red]-[reset]/[green]+[reset] destroy and then create replacement",
	plans.CreateThenDelete: "[green]+[reset]/[red]-[reset] create replacement and then destroy",
	plans.Read:             " [cyan]<=[reset] read (data resources)",
	plans.Forget:           "  . forget",
}

// writeResourceDiff writes one resource change: the comment lines, then
// the symbol, the header and the body.
func writeResourceDiff(b *strings.Builder, pr *printer, rd resourceDiff, cause why) {
	act := rd.change.Action
	b.WriteString(changeComment(pr.p, rd.change, act, cause))
	b.WriteString(pr.symbols[act])
	b.WriteString(" ")
	b.WriteString(resourceHeader(rd.change.Addr))
	b.WriteString(" ")
	// An imported object is shown whole: nothing of it is known to the
	// reader yet.
	pr.print(b, rd.diff, 0, printOpts{showUnchanged: rd.change.Importing != nil && cause == planned})
}

// outputLines returns one "~ name = value" line (or several) for each
// output that changes, names aligned across all outputs.
func (doc *planDoc) outputLines(pr *printer) []string {
	width := doc.outputNameWidth()
	var out []string
	var b strings.Builder
	for _, o := range doc.outputs {
		if o.diff.action == plans.NoOp {
			continue
		}
		b.Reset()
		writeOutputLine(&b, pr, o, width)
		out = append(out, b.String())
	}
	return out
}

// outputNameWidth is the width output names are padded to: the longest.
func (doc *planDoc) outputNameWidth() int {
	width := 0
	for _, o := range doc.outputs {
		width = max(width, len(attrName(o.name)))
	}
	return width
}

// writeOutputLine writes one output's "~ name = value", the name padded
// to width.
func writeOutputLine(b *strings.Builder, pr *printer, o outputDiff, width int) {
	b.WriteString(pr.symbols[o.diff.action])
	fmt.Fprintf(b, " %-*s = ", width, attrName(o.name))
	pr.print(b, o.diff, 0, printOpts{})
}

// writeNoChanges writes the message of a plan with nothing to do.
func (doc *planDoc) writeNoChanges(w *bufio.Writer, p painter, width int, drifted bool) {
	if doc.errored {
		if drifted {
			w.WriteString(HorizontalRule(Options{Color: p.on, Width: width}))
			w.WriteString("\n")
		}
		w.WriteString(p.paint("\n[reset][bold][red]Planning failed.[reset][bold] Terraform encountered an error while generating this plan.[reset]\n\n"))
		return
	}
	switch doc.mode {
	case plans.RefreshOnlyMode:
		if drifted {
			return
		}
		w.WriteString(p.paint("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n"))
		w.WriteString(wordWrap("Terraform has checked that the real remote objects still match the result of your most recent changes, and found no differences.", width))
	case plans.DestroyMode:
		if drifted {
			w.WriteString(HorizontalRule(Options{Color: p.on, Width: width}))
			w.WriteString("\n")
		}
		w.WriteString(p.paint("\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n"))
		w.WriteString(wordWrap("Either you have not created any objects yet or the existing objects were already deleted outside of Terraform.", width))
	default:
		if drifted {
			w.WriteString(HorizontalRule(Options{Color: p.on, Width: width}))
			w.WriteString("\n")
		}
		w.WriteString(p.paint("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n"))
		switch {
		case drifted && doc.canApply:
			w.WriteString(wordWrap("Your configuration already matches the changes detected above, so applying this plan will only update the state to include the changes detected above and won't change any real infrastructure.", width))
		case drifted:
			// Drift alone is not applied by a normal plan; Terraform
			// points to the refresh-only mode that records it.
			w.WriteString(wordWrap("Your configuration already matches the changes detected above. If you'd like to update the Terraform state to match, create and apply a refresh-only plan:\n  terraform apply -refresh-only", width))
		default:
			w.WriteString(wordWrap("Terraform has compared your real infrastructure against your configuration and found no differences, so no changes are needed.", width))
		}
	}
	w.WriteString("\n")
}
