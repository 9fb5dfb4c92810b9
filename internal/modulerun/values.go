package modulerun

import (
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// Result is a module's state and values after a plan or an apply.
type Result struct {
	// State is the module's state as a state v4 document.
	State []byte
	// Changes reports whether the plan changes anything (resources or
	// outputs).
	Changes bool
	// Instances are the managed resource instances, sorted by address.
	Instances []Instance
	// Outputs are the module's outputs by name.
	Outputs map[string]Output
}

// Instance is one managed resource instance of the module.
type Instance struct {
	// Addr is the instance's address in the module ("aws_s3_bucket.b",
	// "terraform_data.n[1]", "module.net.terraform_data.x").
	Addr addrs.AbsResourceInstance
	// Type is the resource type name ("terraform_data").
	Type string
	// Action is what the plan does with it (NoOp when nothing).
	Action plans.Action
	// Before is its value in the prior state (null when created); After
	// its planned value (unknowns where apply decides) or, after apply,
	// its new value. Values carry the sensitive marks the plan or state
	// recorded; the schema's sensitive attributes are Schema's to mark.
	Before, After cty.Value
	// ReplacePaths are the attributes whose change forces replacement.
	ReplacePaths []cty.Path
	// DependsOn are the resources it depends on (explicit depends_on
	// and references), by address.
	DependsOn []addrs.AbsResource
	// Schema is the resource type's schema.
	Schema *configschema.Block
}

// Output is one output of the module.
type Output struct {
	// Value is unknown in a plan when apply decides it; it carries no
	// marks (Sensitive says).
	Value     cty.Value
	Sensitive bool
}

// plannedInstances lists the plan's managed instances that will exist
// after apply: the current objects it creates, keeps or changes.
func plannedInstances(p *plans.Plan, schemas providers.Schemas) []Instance {
	var out []Instance
	for _, c := range p.Changes {
		r := c.Addr.Resource.Resource
		if r.Mode != addrs.ManagedResourceMode || c.DeposedKey != addrs.NotDeposed {
			continue
		}
		if c.Action == plans.Delete || c.Action == plans.Forget {
			continue
		}
		out = append(out, Instance{
			Addr: c.Addr, Type: r.Type, Action: c.Action, Before: c.Before, After: c.After,
			ReplacePaths: c.RequiredReplace, DependsOn: c.Dependencies,
			Schema: schemas.ResourceSchema(c.Provider.Provider, r),
		})
	}
	sortInstances(out)
	return out
}

// stateInstances lists the current objects of st with their new values,
// and the action p took for each.
func stateInstances(st *states.State, p *plans.Plan, schemas providers.Schemas) ([]Instance, error) {
	actions := map[addrs.UniqueKey]*plans.ResourceInstanceChange{}
	for _, c := range p.Changes {
		if c.DeposedKey == addrs.NotDeposed {
			actions[c.Addr.UniqueKey()] = c
		}
	}
	var out []Instance
	var err error
	st.AllInstances(func(addr addrs.AbsResourceInstance, rs *states.Resource, is *states.ResourceInstance) {
		r := addr.Resource.Resource
		if err != nil || r.Mode != addrs.ManagedResourceMode || is.Current == nil {
			return
		}
		schema := schemas.ResourceSchema(rs.ProviderConfig.Provider, r)
		if schema == nil {
			err = fmt.Errorf("no schema for %s", addr)
			return
		}
		obj, derr := is.Current.Decode(schema.ImpliedType())
		if derr != nil {
			err = fmt.Errorf("decoding %s: %w", addr, derr)
			return
		}
		inst := Instance{Addr: addr, Type: r.Type, After: obj.Value, DependsOn: obj.Dependencies, Schema: schema,
			Before: cty.NullVal(schema.ImpliedType())}
		if c := actions[addr.UniqueKey()]; c != nil {
			inst.Action, inst.Before, inst.ReplacePaths = c.Action, c.Before, c.RequiredReplace
		}
		out = append(out, inst)
	})
	sortInstances(out)
	return out, err
}

func sortInstances(is []Instance) {
	sort.Slice(is, func(i, j int) bool { return is[i].Addr.String() < is[j].Addr.String() })
}

// plannedOutputs are the outputs the plan leaves: unknown where apply
// decides them.
func plannedOutputs(p *plans.Plan) map[string]Output {
	out := map[string]Output{}
	for _, o := range p.Outputs {
		if o.Action == plans.Delete {
			continue
		}
		v, _ := o.After.UnmarkDeep()
		out[o.Name] = Output{Value: v, Sensitive: o.Sensitive}
	}
	return out
}

// stateOutputs are the outputs st holds.
func stateOutputs(st *states.State) map[string]Output {
	out := make(map[string]Output, len(st.Outputs))
	for name, o := range st.Outputs {
		out[name] = Output{Value: o.Value, Sensitive: o.Sensitive}
	}
	return out
}
