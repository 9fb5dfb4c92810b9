package plans

import (
	"github.com/cairn-iac/cairn/internal/addrs"
)

// NodeKind is what one step of the operation graph does.
type NodeKind byte

const (
	// NodeProvider configures a provider configuration.
	NodeProvider NodeKind = 'P'
	// NodeLocal evaluates a local value.
	NodeLocal NodeKind = 'L'
	// NodeOutput evaluates a root output and records it in state.
	NodeOutput NodeKind = 'O'
	// NodeExpand evaluates a resource's count or for_each so its instances
	// know count.index, each.key and each.value.
	NodeExpand NodeKind = 'E'
	// NodeChange applies one ResourceInstanceChange.
	NodeChange NodeKind = 'C'
	// NodeResource joins every change of one resource: expressions that
	// refer to the resource wait for it.
	NodeResource NodeKind = 'R'
	// NodeDestroyed joins every delete of one resource: deletes of the
	// resources it depends on wait for it.
	NodeDestroyed NodeKind = 'Z'
)

// Phase splits a replacement into its two steps, so other nodes can be
// ordered between them.
type Phase byte

const (
	// WholeChange runs the whole change in one node.
	WholeChange Phase = 0
	// DestroyPhase deletes the old object of a replacement.
	DestroyPhase Phase = 'D'
	// CreatePhase creates the new object of a replacement.
	CreatePhase Phase = 'C'
)

// Graph is the operation graph of a plan: apply runs every node after the
// nodes it depends on, in parallel where the graph allows.
//
// Nodes refer to changes by index into Plan.Changes; edges point from a node
// to the nodes it waits for. The number of edges is linear in the number of
// nodes: instances of a resource wait for the resource's join node, not for
// each instance of everything they refer to.
type Graph struct {
	Nodes []Node
}

// Node is one step of the operation graph.
type Node struct {
	Kind NodeKind
	// Change is the index of the change in Plan.Changes (NodeChange).
	Change int
	// Phase is the step of a replacement this node runs (NodeChange).
	Phase Phase
	// Resource names the resource (NodeExpand, NodeResource).
	Resource addrs.AbsResource
	// Name names the local or output (NodeLocal, NodeOutput).
	Name string
	// Provider names the provider configuration (NodeProvider).
	Provider addrs.AbsProviderConfig
	// Deps are the indexes of the nodes this node waits for.
	Deps []int
}

// Add appends a node and returns its index.
func (g *Graph) Add(n Node) int {
	g.Nodes = append(g.Nodes, n)
	return len(g.Nodes) - 1
}
