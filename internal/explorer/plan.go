package explorer

import (
	"context"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graphsvg"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
)

// Options say what the page shows beyond its data.
type Options struct {
	// Secrets are the secrets the run knows of beyond the plan's or the
	// state's own (render.Options.Secrets): strings that reveal one are
	// shown as sensitive, as in the text.
	Secrets *marks.Known
	// MaxNodes is the number of graph nodes above which the drawing
	// folds nodes by resource and module (graphsvg.Options.MaxNodes).
	MaxNodes int
	// Title is the page's title; empty gives a default.
	Title string
}

// page is a model with its drawing, ready for the template.
type page struct {
	Title string
	Model *Model
	SVG   string
}

// Data is the model as the page carries it (wire.go).
func (pg *page) Data() pageData { return dataOf(pg.Model) }

// planPage builds the page model of a plan and its graph drawing.
func planPage(ctx context.Context, p *plans.Plan, schemas providers.Schemas, opts Options) (*page, error) {
	blocks, err := render.PlanBlocks(p, schemas, render.Options{Secrets: opts.Secrets})
	if err != nil {
		return nil, err
	}
	t := newTables()
	m := &Model{Kind: "plan", Mode: modeName(p.Mode), Summary: &Summary{}, SummaryLine: blocks.Summary}
	changeEntry := map[*plans.ResourceInstanceChange]int{}
	for _, b := range blocks.Changes {
		e := changeEntryOf(t, b)
		m.Summary.count(e)
		changeEntry[b.Change] = len(m.Changes)
		m.Changes = append(m.Changes, e)
	}
	for _, b := range blocks.Drift {
		m.Drift = append(m.Drift, changeEntryOf(t, b))
	}
	for _, b := range blocks.Outputs {
		e := Entry{Addr: "output." + b.Output, Module: -1, Provider: -1, Action: actionName(b.Action)}
		e.setLines(b.Lines)
		m.Outputs = append(m.Outputs, e)
	}
	pg := &page{Title: opts.Title, Model: m}
	if p.Graph != nil && len(p.Graph.Nodes) > 0 {
		g, entries := operationGraph(p, changeEntry)
		d, err := graphsvg.Draw(ctx, g, graphsvg.Options{MaxNodes: opts.MaxNodes})
		if err != nil {
			return nil, err
		}
		m.Graph = graphModel(g, d, entries)
		pg.SVG = d.SVG
	}
	m.Modules, m.Providers = t.modules, t.providers
	if pg.Title == "" {
		pg.Title = "Cairn plan"
	}
	return pg, nil
}

// changeEntryOf is the entry of one resource change's block.
func changeEntryOf(t *tables, b render.Block) Entry {
	c := b.Change
	e := Entry{
		Addr:     c.Addr.String(),
		Module:   t.module(c.Addr.Module),
		Provider: t.provider(c.Provider),
		Type:     typeName(c.Addr.Resource.Resource),
		Action:   actionName(b.Action),
		Reason:   c.ActionReason.JSON(),
		Deposed:  string(c.DeposedKey),
	}
	if c.Importing != nil {
		e.Tags = append(e.Tags, "import")
		e.ImportID = c.Importing.ID
	}
	if c.Moved() {
		e.Tags = append(e.Tags, "move")
		e.MovedFrom = c.PrevRunAddr.String()
	}
	if b.Action.IsReplace() {
		for _, p := range c.RequiredReplace {
			// FormatPath writes an attribute as ".name", for after
			// an address; alone, the name reads better.
			e.Replace = append(e.Replace, strings.TrimPrefix(diags.FormatPath(p), "."))
		}
	}
	e.setLines(b.Lines)
	return e
}

// count adds one change to the summary.
func (s *Summary) count(e Entry) {
	switch e.Action {
	case "add":
		s.Add++
	case "change":
		s.Change++
	case "replace":
		s.Replace++
	case "destroy":
		s.Destroy++
	case "read":
		s.Read++
	case "forget":
		s.Forget++
	}
	for _, tag := range e.Tags {
		switch tag {
		case "import":
			s.Import++
		case "move":
			s.Move++
		}
	}
}

// actionName names an action as the summary and the filters do.
func actionName(a plans.Action) string {
	switch a {
	case plans.Create:
		return "add"
	case plans.Update:
		return "change"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	case plans.Delete:
		return "destroy"
	case plans.Read:
		return "read"
	case plans.Forget:
		return "forget"
	}
	return "none"
}

func modeName(m plans.Mode) string {
	switch m {
	case plans.DestroyMode:
		return "destroy"
	case plans.RefreshOnlyMode:
		return "refresh-only"
	}
	return "normal"
}
