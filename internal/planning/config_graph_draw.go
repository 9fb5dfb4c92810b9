package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/graphfmt"
	"github.com/cairn-iac/cairn/internal/providers"
)

// ConfigGraph is the configuration's dependency graph as `cairn graph`
// draws it (-type=plan): a box per resource, a diamond per provider, a
// note per local, output and check block, in the order planning builds
// its vertices, and an edge from each object to what it depends on.
func ConfigGraph(ctx context.Context, cfg *configs.Module, lib *providers.Library) (*graphfmt.Graph, diags.Diagnostics) {
	schemas, ds := lib.Schemas(ctx, cfg.Providers())
	if ds.HasErrors() {
		return nil, ds
	}
	env := &eval.Env{ModuleDir: cfg.SourceDir, Prepared: eval.NewPreparedCache()}
	cg, gds := buildConfigGraph(cfg, nil, schemas, env.PreparedBlock)
	ds = ds.Append(gds)
	if ds.HasErrors() {
		return nil, ds
	}
	g := &graphfmt.Graph{Nodes: make([]graphfmt.Node, len(cg.vertices))}
	for i, v := range cg.vertices {
		g.Nodes[i] = graphfmt.Node{ID: v.String(), Label: v.String(), Shape: drawnShape(v.kind)}
		for _, d := range cg.g.Deps(i) {
			g.Edges = append(g.Edges, graphfmt.Edge{From: i, To: d})
		}
	}
	g.SortEdges()
	return g, ds
}

func drawnShape(k vertexKind) graphfmt.Shape {
	switch k {
	case vProvider:
		return graphfmt.Diamond
	case vLocal, vOutput, vCheck:
		return graphfmt.Note
	}
	return graphfmt.Box
}
