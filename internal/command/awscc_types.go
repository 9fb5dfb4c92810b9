package command

import (
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// noteState records the awscc types a state holds, so that the awscc
// provider loads their schemas even when the configuration no longer
// names them (an object to destroy). Once any state is noted, the provider
// loads only the types in use.
func (m *Meta) noteState(st *states.State) {
	if m.stateTypes == nil {
		m.stateTypes = map[string]bool{}
	}
	if st == nil {
		return
	}
	for _, rs := range st.SortedResources() {
		if rs.ProviderConfig.Provider == awscc.Addr {
			m.stateTypes[rs.Addr.Resource.Type] = true
		}
	}
}

// notePlan records the awscc types of a saved plan: its prior state and
// its changes (show and apply of a plan file may run beside another
// configuration, or none).
func (m *Meta) notePlan(p *plans.Plan) {
	m.noteState(p.PriorState)
	m.noteState(p.PrevRunState)
	for _, c := range p.Changes {
		if c.Provider.Provider == awscc.Addr {
			m.stateTypes[c.Addr.Resource.Resource.Type] = true
		}
	}
}

// noStateNeeded says the command reads no state (validate, init, graph):
// the configuration alone decides which awscc types to load.
func (m *Meta) noStateNeeded() { m.noteState(nil) }

// finalVariables returns the values of the root module's variables from
// what the run collected, for the few things decided before evaluation
// (the awscc schemas argument). Variables without a value are missing.
func (m *Meta) finalVariables(cfg *configs.Module) (map[string]cty.Value, error) {
	if cfg == nil {
		return nil, nil
	}
	vals, _ := eval.FinalizeVariables(cfg, m.rawVars, m.funcTable(true))
	return vals, nil
}
