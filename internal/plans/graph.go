package plans

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// Op is what one node of the operation graph does. The plan is a program:
// apply looks up the step for each node's Op and runs it with the node's
// operands; it never infers an operation from a change's action, a phase
// or a deposed key.
type Op byte

const (
	// OpConfigureProvider configures provider configuration
	// Graph.Providers[Ref].
	OpConfigureProvider Op = 'P'
	// OpEvalLocal evaluates local value Graph.Locals[Ref].
	OpEvalLocal Op = 'L'
	// OpEvalOutput evaluates root output Plan.Outputs[Ref] and records it.
	OpEvalOutput Op = 'O'
	// OpRemoveOutput removes root output Plan.Outputs[Ref] from state.
	OpRemoveOutput Op = 'o'
	// OpExpand publishes the expansion planning recorded for resource
	// Graph.Resources[Ref], so its instances see count.index, each.key and
	// each.value; for_each values unknown while planning are evaluated
	// again, and must give the same keys.
	OpExpand Op = 'E'
	// OpJoinResource waits for every change of resource
	// Graph.Resources[Ref] that leaves an object: what refers to the
	// resource waits for it.
	OpJoinResource Op = 'J'
	// OpJoinUpdated waits for the in-place updates of resource
	// Graph.Resources[Ref]: plain deletes of what it depends on wait for it.
	OpJoinUpdated Op = 'u'
	// OpJoinDestroyed waits for every delete of resource
	// Graph.Resources[Ref]: deletes of what it depends on wait for it.
	OpJoinDestroyed Op = 'Z'
	// OpCreate creates the object of change Plan.Changes[Ref] from no prior
	// object: a create, or the create step of delete-then-create.
	OpCreate Op = 'C'
	// OpUpdate updates the current object of change Ref in place.
	OpUpdate Op = 'U'
	// OpDeposeAndCreate moves the current object of change Ref aside under
	// deposed key Deposed, then creates the new object (the first step of
	// create-before-destroy). If the create leaves no object, the deposed
	// one is restored.
	OpDeposeAndCreate Op = 'K'
	// OpDelete deletes the current object of change Ref: a delete, or the
	// destroy step of delete-then-create.
	OpDelete Op = 'D'
	// OpDeleteDeposed deletes deposed object Deposed of change Ref's
	// instance: a deposed object left by an earlier run, or the destroy
	// step of create-before-destroy.
	OpDeleteDeposed Op = 'X'
	// OpRead reads the data source of change Ref.
	OpRead Op = 'R'
	// OpCheck checks the preconditions and postconditions of no-op change
	// Ref: those planning could not decide, because their values were not
	// known yet, are decided once what they refer to is applied.
	OpCheck Op = 'Q'
	// OpEvalVariable evaluates a child module's input variable
	// Graph.Variables[Ref] from its call's argument.
	OpEvalVariable Op = 'V'
	// OpEvalModuleOutput evaluates a child module's output
	// Graph.ModuleOutputs[Ref] for its caller.
	OpEvalModuleOutput Op = 'M'
	// OpExpandModule publishes how module call Plan.ModuleExpansions[Ref]
	// expanded, once what its count or for_each refers to is applied.
	OpExpandModule Op = 'm'
	// OpCheckAssertions evaluates the assertions of check block
	// Plan.Checks[Ref] once what they refer to is applied; a false one is
	// a warning.
	OpCheckAssertions Op = 'A'
	// OpValidateVariable checks again the validation rules of input
	// variable Graph.Variables[Ref] that planning could not decide
	// because what they refer to was not known yet (Terraform 1.9).
	OpValidateVariable Op = 'y'
	// OpOpenEphemeral opens the instances of ephemeral resource
	// Graph.Resources[Ref] when something that calls a provider needs
	// them; apply closes them when its walk is over. Nothing of them is
	// in the plan but this node and the expansion.
	OpOpenEphemeral Op = 'e'
)

// String names the op, for DOT and messages.
func (o Op) String() string {
	switch o {
	case OpConfigureProvider:
		return "configure"
	case OpEvalLocal:
		return "local"
	case OpEvalOutput:
		return "output"
	case OpRemoveOutput:
		return "remove output"
	case OpExpand:
		return "expand"
	case OpJoinResource:
		return "join"
	case OpJoinUpdated:
		return "updated"
	case OpJoinDestroyed:
		return "destroyed"
	case OpCreate:
		return "create"
	case OpUpdate:
		return "update"
	case OpDeposeAndCreate:
		return "depose and create"
	case OpDelete:
		return "delete"
	case OpDeleteDeposed:
		return "delete deposed"
	case OpRead:
		return "read"
	case OpCheck:
		return "check"
	case OpEvalVariable:
		return "variable"
	case OpEvalModuleOutput:
		return "module output"
	case OpExpandModule:
		return "expand module"
	case OpCheckAssertions:
		return "assertions"
	case OpValidateVariable:
		return "validate"
	case OpOpenEphemeral:
		return "open"
	}
	return fmt.Sprintf("op %q", byte(o))
}

// ChangeOp reports whether the op acts on a change (Ref indexes
// Plan.Changes).
func (o Op) ChangeOp() bool {
	switch o {
	case OpCreate, OpUpdate, OpDeposeAndCreate, OpDelete, OpDeleteDeposed, OpRead, OpCheck:
		return true
	}
	return false
}

// Graph is the operation graph of a plan: apply runs every node after the
// nodes it depends on, in parallel where the graph allows.
//
// The number of edges is linear in the number of nodes: instances of a
// resource wait for the resource's expand node, and what refers to a
// resource waits for its join node, never for each instance of it.
type Graph struct {
	Nodes []Node
	// The operands nodes refer to by index (Node.Ref), so a node stays
	// small however long the addresses.
	Providers []addrs.AbsProviderConfig
	Locals    []addrs.AbsLocalValue
	Resources []addrs.AbsResource
	// Variables and ModuleOutputs are child module input variables and
	// outputs, per module instance.
	Variables     []addrs.AbsInputVariable
	ModuleOutputs []addrs.AbsOutputValue
}

// Node is one step of the operation graph.
type Node struct {
	Op Op
	// Ref indexes the table Op names: Plan.Changes, Plan.Outputs,
	// Plan.Checks, Graph.Providers, Graph.Locals or Graph.Resources.
	Ref int
	// Deposed is the deposed key OpDeposeAndCreate moves the current
	// object to and OpDeleteDeposed deletes. Planning chooses it, so
	// both steps of a create-before-destroy agree without sharing state.
	Deposed addrs.DeposedKey
	// Deps are the indexes of the nodes this node waits for.
	Deps []int
}

// Add appends a node and returns its index.
func (g *Graph) Add(n Node) int {
	g.Nodes = append(g.Nodes, n)
	return len(g.Nodes) - 1
}

// AddProvider, AddLocal and AddResource append an operand and return its
// index, for Node.Ref.
func (g *Graph) AddProvider(a addrs.AbsProviderConfig) int {
	g.Providers = append(g.Providers, a)
	return len(g.Providers) - 1
}

// AddLocal appends a local value operand.
func (g *Graph) AddLocal(a addrs.AbsLocalValue) int {
	g.Locals = append(g.Locals, a)
	return len(g.Locals) - 1
}

// AddResource appends a resource operand.
func (g *Graph) AddResource(a addrs.AbsResource) int {
	g.Resources = append(g.Resources, a)
	return len(g.Resources) - 1
}

// AddVariable appends a child module input variable operand.
func (g *Graph) AddVariable(a addrs.AbsInputVariable) int {
	g.Variables = append(g.Variables, a)
	return len(g.Variables) - 1
}

// AddModuleOutput appends a child module output operand.
func (g *Graph) AddModuleOutput(a addrs.AbsOutputValue) int {
	g.ModuleOutputs = append(g.ModuleOutputs, a)
	return len(g.ModuleOutputs) - 1
}

// NodeName names node i as people read it: the object and the operation.
func (p *Plan) NodeName(i int) string {
	g := p.Graph
	n := g.Nodes[i]
	switch {
	case n.Op.ChangeOp():
		// The change's own object: a deposed key chosen by planning (for
		// create-before-destroy) is random, and left out so names are
		// stable from one plan to the next.
		return fmt.Sprintf("%s (%s)", p.Changes[n.Ref].ObjectAddr(), n.Op)
	case n.Op == OpConfigureProvider:
		return g.Providers[n.Ref].String()
	case n.Op == OpEvalLocal:
		return g.Locals[n.Ref].String()
	case n.Op == OpEvalVariable:
		return g.Variables[n.Ref].String()
	case n.Op == OpValidateVariable:
		return fmt.Sprintf("%s (%s)", g.Variables[n.Ref], n.Op)
	case n.Op == OpEvalModuleOutput:
		return g.ModuleOutputs[n.Ref].String()
	case n.Op == OpExpandModule:
		e := p.ModuleExpansions[n.Ref]
		return fmt.Sprintf("%s (%s)", e.Parent.Child(e.Call, addrs.NoKey), n.Op)
	case n.Op == OpEvalOutput || n.Op == OpRemoveOutput:
		return fmt.Sprintf("output.%s (%s)", p.Outputs[n.Ref].Name, n.Op)
	case n.Op == OpCheckAssertions:
		return fmt.Sprintf("%s (%s)", p.Checks[n.Ref].Addr, n.Op)
	}
	return fmt.Sprintf("%s (%s)", g.Resources[n.Ref], n.Op)
}
