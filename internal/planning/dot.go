package planning

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/providers"
)

// GraphDOT renders the configuration's dependency graph in Graphviz DOT:
// one box per resource, a diamond per provider, a note per local, output
// and check block, and an edge from each object to what it depends on.
func GraphDOT(ctx context.Context, cfg *configs.Module, lib *providers.Library) (string, diags.Diagnostics) {
	schemas, ds := lib.Schemas(ctx, cfg.Providers())
	if ds.HasErrors() {
		return "", ds
	}
	env := &eval.Env{ModuleDir: cfg.SourceDir, Prepared: eval.NewPreparedCache()}
	cg, gds := buildConfigGraph(cfg, nil, schemas, env.PreparedBlock)
	ds = ds.Append(gds)
	if ds.HasErrors() {
		return "", ds
	}
	var b strings.Builder
	b.WriteString("digraph {\n\tcompound = \"true\"\n\tnewrank = \"true\"\n\tsubgraph \"root\" {\n")
	for _, v := range cg.vertices {
		fmt.Fprintf(&b, "\t\t%q [label = %q, shape = %q]\n", "[root] "+v.String(), v.String(), dotShape(v.kind))
	}
	var edges []string
	for i, v := range cg.vertices {
		for _, d := range cg.g.Deps(i) {
			edges = append(edges, fmt.Sprintf("\t\t%q -> %q\n", "[root] "+v.String(), "[root] "+cg.vertices[d].String()))
		}
	}
	sort.Strings(edges)
	edges = dedupe(edges)
	b.WriteString(strings.Join(edges, ""))
	b.WriteString("\t}\n}\n")
	return b.String(), ds
}

func dotShape(k vertexKind) string {
	switch k {
	case vProvider:
		return "diamond"
	case vLocal, vOutput, vCheck:
		return "note"
	}
	return "box"
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
