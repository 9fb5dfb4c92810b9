package explorer

import (
	"context"
	"strconv"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/graphsvg"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states"
)

// statePage builds the page of a state: every object as `cairn show`
// prints it, with the resources it depends on, and a graph of the
// resources and those dependencies. Objects the schemas cannot decode
// are named in Model.Problems, and the rest is shown, as show does; the
// problems are returned too (unshown).
func statePage(ctx context.Context, s *states.State, schemas providers.Schemas, opts Options) (pg *page, unshown, err error) {
	parts, unshown := render.StateParts(s, schemas, render.Options{Secrets: opts.Secrets})
	m := &Model{Kind: "state"}
	if unshown != nil {
		m.Problems = append(m.Problems, unshown.Error())
	}
	t := newTables()
	first := map[string]int{}
	for _, o := range parts.Objects {
		e := stateEntry(t, o)
		res := o.Resource.Addr.String()
		if _, ok := first[res]; !ok {
			first[res] = len(m.Changes)
		}
		m.Changes = append(m.Changes, e)
	}
	for _, b := range parts.Outputs {
		e := Entry{Addr: "output." + b.Output, Module: -1, Provider: -1, Action: "none"}
		e.setLines(b.Lines)
		m.Outputs = append(m.Outputs, e)
	}
	m.Modules, m.Providers = t.modules, t.providers
	pg = &page{Title: opts.Title, Model: m}
	if pg.Title == "" {
		pg.Title = "Cairn state"
	}
	if len(first) == 0 {
		return pg, unshown, nil
	}
	g, entries := dependencyGraph(s, first)
	d, err := graphsvg.Draw(ctx, g, graphsvg.Options{MaxNodes: opts.MaxNodes})
	if err != nil {
		return nil, nil, err
	}
	m.Graph = graphModel(g, d, entries)
	pg.SVG = d.SVG
	return pg, unshown, nil
}

// stateEntry is the entry of one object of the state.
func stateEntry(t *tables, o render.StateObject) Entry {
	e := Entry{
		Addr:     o.Addr.String(),
		Module:   t.module(o.Addr.Module),
		Provider: t.provider(o.Resource.ProviderConfig),
		Type:     typeName(o.Addr.Resource.Resource),
		Action:   "none",
		Deposed:  string(o.DeposedKey),
	}
	if o.DeposedKey != addrs.NotDeposed {
		e.Tags = append(e.Tags, "deposed")
	}
	if o.Object.Status == states.ObjectTainted {
		e.Tags = append(e.Tags, "tainted")
	}
	for _, d := range o.Object.Dependencies {
		e.Deps = append(e.Deps, d.String())
	}
	e.setLines(o.Lines)
	return e
}

// dependencyGraph is one node per resource of the state, with an edge to
// each resource its objects depend on; first maps a resource to its
// first object's entry.
func dependencyGraph(s *states.State, first map[string]int) (graphsvg.Graph, map[string]int) {
	var g graphsvg.Graph
	entries := map[string]int{}
	ids := map[string]string{}
	for i, rs := range s.SortedResources() {
		addr := rs.Addr.String()
		if _, ok := first[addr]; !ok {
			continue
		}
		ids[addr] = "r" + strconv.Itoa(i)
	}
	for _, rs := range s.SortedResources() {
		addr := rs.Addr.String()
		id, ok := ids[addr]
		if !ok {
			continue
		}
		entries[id] = first[addr]
		g.Nodes = append(g.Nodes, graphsvg.Node{ID: id, Label: addr, Kind: "noop", Group: rs.Addr.Config().String()})
		seen := map[string]bool{}
		for _, is := range rs.Instances {
			for _, o := range objectsOf(is) {
				for _, d := range o.Dependencies {
					to, ok := ids[d.String()]
					if ok && to != id && !seen[to] {
						seen[to] = true
						g.Edges = append(g.Edges, graphsvg.Edge{From: id, To: to})
					}
				}
			}
		}
	}
	return g, entries
}

// objectsOf returns an instance's current and deposed objects.
func objectsOf(is *states.ResourceInstance) []*states.ObjectSrc {
	var out []*states.ObjectSrc
	if is.Current != nil {
		out = append(out, is.Current)
	}
	for _, k := range is.SortedDeposedKeys() {
		out = append(out, is.Deposed[k])
	}
	return out
}
