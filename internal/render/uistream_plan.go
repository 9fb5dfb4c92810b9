package render

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// PlanUIMessages returns the messages of the machine-readable UI stream
// that describe a plan, in Terraform's order: a resource_drift message for
// each object changed outside of Terraform, a planned_change message for
// each instance the plan changes (no-ops are left out, and so is forgetting
// a data resource), the change_summary, then an outputs message when root
// outputs change.
//
// Drift is computed as for Plan, so every drifted object needs a schema in
// schemas; a missing one is an internal error.
func PlanUIMessages(p *plans.Plan, schemas providers.Schemas) ([]UIMessage, error) {
	var out []UIMessage
	drift, err := driftChanges(p, schemas)
	if err != nil {
		return nil, err
	}
	for _, c := range drift {
		ch := newUIChange(c)
		out = append(out, infoMessage("resource_drift", fmt.Sprintf("%s: Drift detected (%s)", ch.Resource.Addr, ch.Action), "change", ch))
	}
	out = append(out, PlannedChangeUIMessages(p)...)
	sum := UIChangeSummary{Operation: "plan"}
	for _, c := range p.Changes {
		if c.Action == plans.Delete && c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
			continue
		}
		if c.Importing != nil {
			sum.Import++
		}
		switch c.Action {
		case plans.Forget:
			if c.Addr.Resource.Resource.Mode == addrs.ManagedResourceMode {
				sum.Forget++
			}
		case plans.Create:
			sum.Add++
		case plans.Update:
			sum.Change++
		case plans.Delete:
			sum.Remove++
		case plans.DeleteThenCreate, plans.CreateThenDelete:
			sum.Add++
			sum.Remove++
		}
	}
	out = append(out, sum.Message())
	if len(p.Outputs) > 0 {
		outputs := make(map[string]uiOutput, len(p.Outputs))
		for _, o := range p.Outputs {
			outputs[o.Name] = uiOutput{Sensitive: o.Sensitive, Action: uiAction(o.Action)}
		}
		out = append(out, outputsMessage(outputs))
	}
	return out, nil
}

// PlannedChangeUIMessages returns a planned_change message for each
// instance the plan changes, in address order: no-ops are left out unless
// they import or move, and so is forgetting a data resource. Applying a saved plan starts with them.
func PlannedChangeUIMessages(p *plans.Plan) []UIMessage {
	var out []UIMessage
	for _, c := range sortedChanges(p.Changes) {
		if (c.Action == plans.NoOp && c.Importing == nil && !c.Moved()) || (c.Action == plans.Delete && c.Addr.Resource.Resource.Mode == addrs.DataResourceMode) {
			continue
		}
		ch := newUIChange(c)
		out = append(out, infoMessage("planned_change", fmt.Sprintf("%s: Plan to %s", ch.Resource.Addr, ch.Action), "change", ch))
	}
	return out
}

// uiOutput is one root output in the stream. A planned output says only
// whether it is sensitive and its action; an applied one adds its type,
// and its value unless it is sensitive.
type uiOutput struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Action    string          `json:"action,omitempty"`
}

func outputsMessage(outputs map[string]uiOutput) UIMessage {
	return infoMessage("outputs", fmt.Sprintf("Outputs: %d", len(outputs)), "outputs", outputs)
}

// AppliedOutputsUIMessage returns the outputs message that ends a
// successful apply: every root output's type, and the value of each that is
// not sensitive. The value of a sensitive output is left out, never masked
// with a placeholder a tool could mistake for the value.
func AppliedOutputsUIMessage(outputs map[string]*states.OutputValue, secrets marks.Secrets) (UIMessage, error) {
	out := make(map[string]uiOutput, len(outputs))
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		o := outputs[name]
		v := unmarkDeep(o.Value)
		ty, err := ctyjson.MarshalType(v.Type())
		if err != nil {
			return UIMessage{}, fmt.Errorf("output %s: %w", name, err)
		}
		// A value that reveals a secret is sent as a sensitive one is,
		// without its value: the stream is read by people too.
		sensitive := o.Sensitive || revealsSecret(v, secrets)
		uo := uiOutput{Sensitive: sensitive, Type: ty}
		if !sensitive {
			if uo.Value, err = ctyjson.Marshal(v, v.Type()); err != nil {
				return UIMessage{}, fmt.Errorf("output %s: %w", name, err)
			}
		}
		out[name] = uo
	}
	return outputsMessage(out), nil
}
