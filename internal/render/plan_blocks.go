package render

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/cairn-iac/cairn/internal/parallel"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
)

// A plan viewed piece by piece (the HTML explorer shows each change on its
// own, collapsible and filterable) is still the plan Terraform prints: the
// blocks below are cut from the same diffs, masking and printer as Plan,
// not computed again, so the two cannot disagree about what a change does
// or which values are sensitive.

// LineKind is what one line of a block shows, as its colour tells in a
// terminal: the page colours lines by it.
type LineKind byte

const (
	// LineContext is a line that changes nothing itself: an unchanged
	// value, a brace, a heredoc line.
	LineContext LineKind = iota
	// LineHeader is a "# addr will be ..." line above a change.
	LineHeader
	// LineNote is any other comment: "# (2 unchanged attributes hidden)",
	// "# (moved from ...)", warnings.
	LineNote
	LineAdd
	LineRemove
	LineChange
	// LineReplace is a "-/+" or "+/-" line.
	LineReplace
	LineRead
)

// String names the kind as the explorer's page model spells it.
func (k LineKind) String() string {
	return [...]string{"ctx", "head", "note", "add", "del", "chg", "rep", "read"}[k]
}

// Line is one line of a block, without colour codes.
type Line struct {
	Kind LineKind
	Text string
}

// Block is one change as the plan text prints it, line by line: the
// comment lines, the symbol and header, the attribute diff.
type Block struct {
	// Change is the resource change shown (for drift: what refresh
	// found); nil for an output.
	Change *plans.ResourceInstanceChange
	// Output names the output an output block is about.
	Output string
	// Action is the action the block shows: for a change, its planned
	// action; for an output, create, update or delete.
	Action plans.Action
	Lines  []Line
}

// Blocks is a plan cut into the blocks its text is made of.
type Blocks struct {
	// Changes are the resource changes the text lists, in its order;
	// no-ops that neither import nor move are not listed.
	Changes []Block
	// Drift are the objects the "changed outside of Terraform" section
	// lists; empty when the text leaves the section out.
	Drift []Block
	// Outputs are the outputs that change, by name.
	Outputs []Block
	// Summary is the "Plan: ..." line, or the "No changes." line of a
	// plan that does nothing, or "" when the text has neither.
	Summary string
}

// PlanBlocks returns the blocks Plan would print for p, with the same
// masking (opts.Secrets and the plan's own secrets). opts.Color and
// opts.Width do not apply: blocks hold no colour codes, and diffs are
// not word-wrapped.
func PlanBlocks(p *plans.Plan, schemas providers.Schemas, opts Options) (*Blocks, error) {
	doc, err := newPlanDoc(p, schemas, opts.Secrets)
	if err != nil {
		return nil, err
	}
	// The printer paints so lines can be told apart by their colour;
	// the codes are taken out again (splitPainted).
	pr := newPrinter(painter{on: true})
	out := &Blocks{}
	var listed []resourceDiff
	for _, rd := range doc.changes {
		if shown(rd.change) {
			listed = append(listed, rd)
		}
	}
	// The printer is read-only once built: blocks are printed in
	// parallel, as Plan prints its changes.
	out.Changes = make([]Block, len(listed))
	parallel.ForEach(len(listed), func(i int) {
		out.Changes[i] = resourceBlock(pr, listed[i], planned)
	})
	if !doc.empty || doc.mode == plans.RefreshOnlyMode {
		for _, rd := range doc.shownDrift() {
			out.Drift = append(out.Drift, resourceBlock(pr, rd, detected))
		}
	}
	width := doc.outputNameWidth()
	for _, o := range doc.outputs {
		if o.diff.action == plans.NoOp {
			continue
		}
		var b strings.Builder
		writeOutputLine(&b, pr, o, width)
		out.Outputs = append(out.Outputs, Block{Output: o.name, Action: o.diff.action, Lines: splitPainted(b.String())})
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	switch n, imports, moves := doc.counts(), doc.imports(), doc.moves(); {
	case len(n) > 0 || imports > 0 || moves > 0:
		doc.writeSummary(w, painter{}, n, imports)
	case len(out.Outputs) == 0:
		// The text says there is nothing to do instead; a page of
		// the plan says it too, rather than nothing.
		doc.writeNoChanges(w, painter{}, 1, len(out.Drift) > 0) // width 1: no rule, no wrapping
	}
	w.Flush()
	out.Summary, _, _ = strings.Cut(strings.TrimSpace(buf.String()), "\n")
	return out, nil
}

// resourceBlock is one resource change's block.
func resourceBlock(pr *printer, rd resourceDiff, cause why) Block {
	var b strings.Builder
	writeResourceDiff(&b, pr, rd, cause)
	return Block{Change: rd.change, Action: rd.change.Action, Lines: splitPainted(b.String())}
}

// splitPainted splits painted text into lines without colour codes, each
// classified by the colour its text starts with. Only a line whose first
// character after the indentation is painted counts as painted: values are
// never painted, so a heredoc line that happens to start with "+" stays
// context.
func splitPainted(s string) []Line {
	raw := strings.Split(s, "\n")
	out := make([]Line, len(raw))
	for i, l := range raw {
		out[i] = Line{Kind: paintedKind(l), Text: stripSGR(l)}
	}
	return out
}

// paintedKind classifies one painted line.
func paintedKind(l string) LineKind {
	// A reset may close the line before, ahead of the indentation.
	t := strings.TrimLeft(strings.TrimPrefix(l, "\x1b[0m"), " ")
	if strings.HasPrefix(t, "#") {
		return LineNote
	}
	code, rest, ok := leadingSGR(t)
	if !ok {
		return LineContext
	}
	switch code {
	case "1":
		return LineHeader
	case "90":
		if strings.HasPrefix(stripSGR(rest), "#") {
			return LineNote
		}
		return LineContext
	case "32":
		if strings.HasPrefix(stripSGR(rest), "+/-") {
			return LineReplace
		}
		return LineAdd
	case "31":
		if strings.HasPrefix(stripSGR(rest), "-/+") {
			return LineReplace
		}
		return LineRemove
	case "33":
		return LineChange
	case "36":
		return LineRead
	}
	return LineContext
}

// leadingSGR returns the code of the select-graphic-rendition sequence s
// starts with, and s from that sequence's text on.
func leadingSGR(s string) (code, rest string, ok bool) {
	if !strings.HasPrefix(s, "\x1b[") {
		return "", s, false
	}
	end := strings.IndexByte(s, 'm')
	if end < 0 {
		return "", s, false
	}
	return s[2:end], s[end+1:], true
}

// stripSGR removes the colour codes painter writes ("\x1b[" digits "m").
func stripSGR(s string) string {
	if strings.IndexByte(s, '\x1b') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			break
		}
		j := i + 2
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == len(s) || s[j] != 'm' {
			b.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		b.WriteString(s[:i])
		s = s[j+1:]
	}
	b.WriteString(s)
	return b.String()
}
