package render

import (
	"github.com/cairn-iac/cairn/internal/graphfmt"
	"github.com/cairn-iac/cairn/internal/plans"
)

// OperationGraph is a plan's operation graph as `cairn graph` draws it
// (-type=apply, -type=plan-destroy, -plan=FILE), in the layout terraform
// graph uses: one node per operation, labelled with the object and what
// apply does to it, and an edge from each operation to each one it waits
// for. Nodes and edges are sorted, so the same plan always draws the same
// text.
func OperationGraph(p *plans.Plan) *graphfmt.Graph {
	g := &graphfmt.Graph{}
	if p.Graph == nil {
		return g
	}
	g.Nodes = make([]graphfmt.Node, len(p.Graph.Nodes))
	for i, n := range p.Graph.Nodes {
		name := p.NodeName(i)
		g.Nodes[i] = graphfmt.Node{ID: name, Label: name, Shape: opShape(n.Op)}
		for _, d := range n.Deps {
			g.Edges = append(g.Edges, graphfmt.Edge{From: i, To: d})
		}
	}
	g.SortNodes()
	g.SortEdges()
	return g
}

func opShape(op plans.Op) graphfmt.Shape {
	switch op {
	case plans.OpConfigureProvider:
		return graphfmt.Diamond
	case plans.OpEvalLocal, plans.OpEvalOutput, plans.OpRemoveOutput:
		return graphfmt.Note
	case plans.OpJoinResource, plans.OpJoinUpdated, plans.OpJoinDestroyed, plans.OpExpand:
		return graphfmt.Ellipse
	}
	return graphfmt.Box
}
