package graphsvg

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkDraw draws plan-like graphs (planGraph) of 100 and 1,000
// nodes node by node, 1,000 folded by resource, and 10,000 folded (the
// default MaxNodes) by resource (250 resources) and by module split
// back into resources (500 resources): what `cairn show -html` pays for
// its graph. BenchmarkDrawRandom is the hard case for the layout.
func BenchmarkDraw(b *testing.B) {
	for _, bc := range []struct {
		groups, count, modules int
		opts                   Options
	}{
		{groups: 20, count: 5, modules: 4},
		{groups: 100, count: 10, modules: 10, opts: Options{MaxNodes: 1000}},
		{groups: 100, count: 10, modules: 10},
		{groups: 250, count: 40, modules: 25},
		{groups: 500, count: 20, modules: 25},
	} {
		g := planGraph(bc.groups, bc.count, bc.modules)
		name := fmt.Sprintf("nodes=%d/groups=%d/max=%d", len(g.Nodes), bc.groups, bc.opts.MaxNodes)
		b.Run(name, func(b *testing.B) { benchDraw(b, g, bc.opts) })
	}
}

// BenchmarkDrawRandom draws a random DAG of 1,000 nodes and 2,800 edges
// node by node: no structure for the ordering to find, edges across
// many columns, so many virtual nodes (dot took 8.3 s at full effort).
func BenchmarkDrawRandom(b *testing.B) {
	benchDraw(b, randomDAG(1000, 2800, 5), Options{MaxNodes: 1000})
}

func benchDraw(b *testing.B, g Graph, opts Options) {
	b.ReportAllocs()
	var d *Drawing
	for b.Loop() {
		var err error
		if d, err = Draw(context.Background(), g, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(d.Members)), "drawn-nodes")
	b.ReportMetric(float64(len(d.SVG))/1024, "svg-KiB")
}
