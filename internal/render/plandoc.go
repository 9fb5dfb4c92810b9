package render

import (
	"encoding/json"

	tfjson "github.com/hashicorp/terraform-json"
)

// PlanDocument is the JSON document of a saved plan (PlanJSON). Its
// parts are terraform-json's types, so callers read them as tools do,
// except the configuration, which Terraform writes in a form
// terraform-json's types cannot reproduce (see configDoc): it is kept
// apart and written in Plan.Config's place. Marshal the document itself,
// not its Plan.
type PlanDocument struct {
	*tfjson.Plan
	config  *configDoc
	errored bool
}

// planDocumentJSON is the document's layout: the fields Cairn writes, in
// the order Terraform 1.5.7 writes them.
type planDocumentJSON struct {
	FormatVersion      string                          `json:"format_version,omitempty"`
	TerraformVersion   string                          `json:"terraform_version,omitempty"`
	Variables          map[string]*tfjson.PlanVariable `json:"variables,omitempty"`
	PlannedValues      *tfjson.StateValues             `json:"planned_values,omitempty"`
	ResourceDrift      []*tfjson.ResourceChange        `json:"resource_drift,omitempty"`
	ResourceChanges    []*tfjson.ResourceChange        `json:"resource_changes,omitempty"`
	OutputChanges      map[string]*tfjson.Change       `json:"output_changes,omitempty"`
	PriorState         *tfjson.State                   `json:"prior_state,omitempty"`
	Configuration      *configDoc                      `json:"configuration,omitempty"`
	RelevantAttributes []tfjson.ResourceAttribute      `json:"relevant_attributes,omitempty"`
	Checks             []tfjson.CheckResultStatic      `json:"checks,omitempty"`
	Timestamp          string                          `json:"timestamp,omitempty"`
	Errored            bool                            `json:"errored,omitempty"`
}

// MarshalJSON writes the document as `terraform show -json PLANFILE`
// does.
func (d *PlanDocument) MarshalJSON() ([]byte, error) {
	p := d.Plan
	return json.Marshal(planDocumentJSON{
		FormatVersion: p.FormatVersion, TerraformVersion: p.TerraformVersion, Variables: p.Variables,
		PlannedValues: p.PlannedValues, ResourceDrift: p.ResourceDrift, ResourceChanges: p.ResourceChanges,
		OutputChanges: p.OutputChanges, PriorState: p.PriorState, Configuration: d.config,
		RelevantAttributes: p.RelevantAttributes, Checks: p.Checks, Timestamp: p.Timestamp, Errored: d.errored,
	})
}
