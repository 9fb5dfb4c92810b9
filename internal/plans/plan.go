package plans

import (
	"encoding/json"
	"sort"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// Mode is the kind of plan.
type Mode byte

const (
	// NormalMode plans to make remote objects match the configuration.
	NormalMode Mode = iota
	// DestroyMode plans to delete every managed object.
	DestroyMode
	// RefreshOnlyMode only updates state to match remote objects.
	RefreshOnlyMode
)

// Plan is the result of planning.
type Plan struct {
	Mode Mode
	// Changes lists one change per resource instance object that is not a
	// no-op, plus no-ops (kept so JSON output can list every instance),
	// sorted by address.
	Changes []*ResourceInstanceChange
	Outputs []*OutputChange
	// RelevantAttributes are the attributes the changes refer to, in
	// address order.
	RelevantAttributes []ResourceAttr
	// VariableValues are the root module variables, with marks, as
	// planning used them; apply re-evaluates expressions with the same
	// values.
	VariableValues map[string]cty.Value
	// ApplyTimeVariables names the root variables declared ephemeral
	// (Terraform 1.10, OpenTofu 1.11): VariableValues leaves them out and
	// the plan file keeps only their names, so applying a saved plan
	// needs their values again, as Terraform's does.
	ApplyTimeVariables []string
	// EphemeralValues holds the values of ApplyTimeVariables for the
	// apply: those planning used, when one process plans and applies, or
	// those given again to apply a saved plan. Never written anywhere.
	EphemeralValues map[string]cty.Value
	// PriorState is the refreshed state: what apply starts from.
	PriorState *states.State
	// PrevRunState is the state as read, before refresh; drift is the
	// difference between it and PriorState.
	PrevRunState *states.State
	// Moves lists the objects moved between the previous run's state and
	// PrevRunState, by new address (empty in a destroy plan, whose
	// changes Terraform shows at their new addresses only).
	Moves []Move
	// StateLineage and StateSerial identify the snapshot the plan was made
	// against; applying a saved plan fails if the state moved on.
	StateLineage string
	StateSerial  uint64
	// Expansions records how every configured resource expanded into
	// instances, in address order; apply uses them instead of evaluating
	// count and for_each again.
	Expansions []*ResourceExpansion
	// ModuleExpansions records how every module call expanded, so apply
	// evaluates module.NAME with the instances planning chose.
	ModuleExpansions []*ModuleExpansion
	// Targets are the -target addresses the plan was limited to, so that
	// applying it warns that changes may be incomplete.
	Targets []string
	// Excludes are the -exclude addresses the plan left out (OpenTofu),
	// so that applying it warns the same way.
	Excludes []string
	// Checks are the check blocks' results, one per check in each module
	// instance, sorted by check block, then module instance.
	Checks []*CheckResult
	// Graph is the operation graph apply walks.
	Graph *Graph
	// Errored is true when planning stopped with errors; such a plan can
	// be shown but not applied.
	Errored   bool
	Timestamp time.Time
	// ConfigSources holds the configuration files the plan was made from,
	// so a saved plan applies exactly the configuration it planned.
	ConfigSources map[string][]byte
}

// ResourceInstanceChange is the planned change to one resource instance
// object (the current object, or a deposed one when DeposedKey is set).
type ResourceInstanceChange struct {
	Addr addrs.AbsResourceInstance
	// PrevRunAddr is the address the object had in the previous run's
	// state: Addr, unless a moved block (or an implied move) rebound it.
	// A zero value (decoded from an older plan file) means Addr.
	PrevRunAddr  addrs.AbsResourceInstance
	DeposedKey   addrs.DeposedKey
	Provider     addrs.AbsProviderConfig
	Action       Action
	ActionReason ActionReason
	// Before is the prior value (null for create); After the planned value
	// (null for delete), possibly with unknowns. Both carry sensitive
	// marks.
	Before cty.Value
	After  cty.Value
	// RequiredReplace are the paths that forced a replacement.
	RequiredReplace []cty.Path
	// Private is the provider's planned private data.
	Private []byte
	// SchemaVersion is the resource type's schema version at plan time.
	SchemaVersion int64
	// Dependencies are the resources the configuration refers to, recorded
	// in state with the new object so destroy order is known even after
	// the configuration is gone. Shared by all instances of a resource.
	Dependencies []addrs.AbsResource
	// CreateBeforeDestroy records the lifecycle setting in state.
	CreateBeforeDestroy bool
	// Importing is set when an import block adopts the object this plan
	// starts from: Before is the imported object, and applying the plan
	// makes it managed even when Action is NoOp.
	Importing *Importing
}

// Importing records that a change starts by importing an existing object.
type Importing struct {
	// ID is the provider's id of the object, from the import block.
	ID string `json:"id,omitempty"`
	// Identity is the import block's identity instead (Terraform 1.12),
	// as JSON: the attributes it set.
	Identity json.RawMessage `json:"identity,omitempty"`
	// GeneratedConfig is the resource block plan -generate-config-out
	// wrote for the object, which had none: the plan's configuration for
	// it (show -json's generated_config).
	GeneratedConfig string `json:"generated_config,omitempty"`
}

// Moved reports whether the change's object had another address in the
// previous run's state.
func (c *ResourceInstanceChange) Moved() bool {
	return c.PrevRunAddr.Resource.Resource.Type != "" && !c.PrevRunAddr.Equal(c.Addr)
}

// ObjectAddr returns the address of the object the change is about.
func (c *ResourceInstanceChange) ObjectAddr() addrs.AbsResourceInstanceObject {
	return c.Addr.Object(c.DeposedKey)
}

// ResourceExpansion is how one resource expanded into instances.
type ResourceExpansion struct {
	Addr      addrs.AbsResource
	Expansion *instances.Expansion
}

// ModuleExpansion is how one module call expanded in one instance of the
// calling module.
type ModuleExpansion struct {
	Parent    addrs.ModuleInstance
	Call      string
	Expansion *instances.Expansion
}

// OutputChange is the planned change to a root module output.
type OutputChange struct {
	Name      string
	Action    Action
	Before    cty.Value
	After     cty.Value
	Sensitive bool
}

// HasChanges reports whether applying the plan would change anything:
// a resource action other than no-op, an import, a move, or an output
// change.
func (p *Plan) HasChanges() bool {
	for _, c := range p.Changes {
		if c.Action != NoOp || c.Importing != nil || c.Moved() {
			return true
		}
	}
	for _, o := range p.Outputs {
		if o.Action != NoOp {
			return true
		}
	}
	return false
}

// SortChanges orders Changes by address, then deposed key, so output and
// files are deterministic whatever order planning finished in.
func (p *Plan) SortChanges() {
	sort.Slice(p.Changes, func(i, j int) bool {
		a, b := p.Changes[i], p.Changes[j]
		if !a.Addr.Equal(b.Addr) {
			return a.Addr.Less(b.Addr)
		}
		return a.DeposedKey < b.DeposedKey
	})
	sort.Slice(p.Outputs, func(i, j int) bool { return p.Outputs[i].Name < p.Outputs[j].Name })
}

// ImportCount returns how many instances the plan imports, whatever
// else their changes do, as Terraform counts "to import".
func (p *Plan) ImportCount() int {
	n := 0
	for _, c := range p.Changes {
		if c.Importing != nil {
			n++
		}
	}
	return n
}

// ForgetCount is how many managed objects the plan drops from state without
// destroying them (removed blocks with destroy = false): the "N to forget"
// of Terraform 1.7's and OpenTofu's summaries. A data source leaves state
// on every plan and is not counted.
func (p *Plan) ForgetCount() int {
	n := 0
	for _, c := range p.Changes {
		if c.Action == Forget && c.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
			n++
		}
	}
	return n
}

// Counts returns how many instances will be added, changed and destroyed,
// counting a replacement as one add and one destroy, as Terraform does.
func (p *Plan) Counts() (add, change, destroy int) {
	for _, c := range p.Changes {
		switch c.Action {
		case Create:
			add++
		case Update:
			change++
		case Delete:
			destroy++
		case DeleteThenCreate, CreateThenDelete:
			add++
			destroy++
		}
	}
	return
}
