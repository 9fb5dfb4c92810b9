package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
)

// result is what planning one vertex produced, in every instance of its
// module. The vertex's visit fills its own result and returns it; the walk
// stores it by vertex (graph.WalkResults) before the vertex's dependents
// start, and fold gathers every result into the plan after the walk. So
// no vertex writes the plan being built, and nothing the planner shares
// during the walk needs a lock. Two things are written during the walk,
// each a concurrent structure with a small method set of its own: the
// value table expressions read (namedvals.Values, through p.env), and the
// provider instances provider vertices configure (providers.InstanceSet).
//
// A vertex reads what an earlier vertex produced only from the result of a
// vertex it depends on (resultOf): the walk stored that one before the
// reader started, and nothing writes it again.
type result struct {
	records
	expansions []*plans.ResourceExpansion
	// droppedData holds the data resources that are no longer configured.
	droppedData []addrs.AbsResource
	// outputs holds root output changes; outputValues the root output
	// values the prior state records.
	outputs      []*plans.OutputChange
	outputValues []outputValue
	// module is a module call's expansion of its child.
	module moduleExpansion
	// checks holds check blocks' results; dataProblems the failures of a
	// check's scoped data source, which the check reports.
	checks       []*plans.CheckResult
	dataProblems []scopedDataProblems
	// deferredValidations are the module instances in which a
	// validation vertex's rules were not known yet; apply checks them
	// again (OpValidateVariable).
	deferredValidations []addrs.ModuleInstance
	// index finds the changes of current objects for the vertex's
	// dependents; only a resource vertex some dependent looks into has
	// one (see watchedResources).
	index *changeIndex
	diags diags.Diagnostics
}

// records is what planning one object records: its change, and its state
// for the plan's prior state. Instances planned in parallel each fill
// their own, and the vertex merges them in instance order.
type records struct {
	changes []*plans.ResourceInstanceChange
	// objects holds the objects read, refreshed, imported or found gone
	// (a nil src removes the object); dependencies the new dependencies
	// of objects the plan leaves alone.
	objects      []priorObject
	dependencies []objectDependencies
}

// priorObject is an object of the plan's prior state as planning found
// it; a nil src means the object is gone.
type priorObject struct {
	addr     addrs.AbsResourceInstanceObject
	src      *states.ObjectSrc
	provider addrs.AbsProviderConfig
}

// objectDependencies is what an unchanged object depends on now.
type objectDependencies struct {
	addr addrs.AbsResourceInstanceObject
	deps []addrs.AbsResource
}

// outputValue is a root output's value for the prior state; nil removes
// it.
type outputValue struct {
	name  string
	value *states.OutputValue
}

// moduleExpansion is the instances a module call's child module has in
// this plan, and the expansion of the call in each calling instance.
type moduleExpansion struct {
	insts []addrs.ModuleInstance
	calls []*plans.ModuleExpansion
}

// scopedDataProblems is why a check block's scoped data source could not
// be read, in one module instance.
type scopedDataProblems struct {
	check    addrs.AbsCheck
	problems []string
}

// record adds a change, with the address its object had in the previous
// run's state.
func (p *planner) record(out *records, c *plans.ResourceInstanceChange) {
	p.moves.setPrevRunAddr(c)
	out.changes = append(out.changes, c)
}

// setPrior records an object's refreshed (or imported, or read) form for
// the plan's prior state; a nil src records that it is gone.
func (out *records) setPrior(addr addrs.AbsResourceInstanceObject, src *states.ObjectSrc, provider addrs.AbsProviderConfig) {
	out.objects = append(out.objects, priorObject{addr: addr, src: src, provider: provider})
}

// merge appends what planning one instance recorded.
func (out *records) merge(in *records) {
	out.changes = append(out.changes, in.changes...)
	out.objects = append(out.objects, in.objects...)
	out.dependencies = append(out.dependencies, in.dependencies...)
}

// resultOf returns the result of vertex v. The caller must be planning a
// vertex that depends on v (directly or not), or the walk must be over:
// see graph.WalkResults. prepare sizes the table with the graph, and
// Import's configureFor fills it one vertex at a time as the walk would.
func (p *planner) resultOf(v int) *result {
	return &p.done[v]
}
