package render

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// PlanJSON returns a plan as `terraform show -json PLANFILE` describes it
// (format 1.2), for tools written against Terraform's JSON plan:
//
//   - variables: the root module variables' values;
//   - planned_values: every resource instance and output as it will be
//     after apply, unknown values left out, sensitive ones masked;
//   - resource_changes: every instance change, no-ops included, with
//     before, after, after_unknown, before_sensitive, after_sensitive,
//     replace_paths and action_reason;
//   - resource_drift: objects changed outside of Terraform (see Plan);
//   - output_changes, prior_state (when the prior state is not empty) and
//     timestamp;
//   - configuration: the configuration cfg the plan was made from (see
//     configJSON), left out when cfg is nil;
//   - errored: true when planning stopped with errors (absent otherwise,
//     as Terraform 1.5.7 writes it).
//
// checks lists the check blocks' results; the results of preconditions
// and postconditions are left out, as plans do not record them.
// Values are included as they are, sensitive ones too, as in Terraform;
// the *_sensitive masks say which to hide.
//
// Every resource change, and every resource of cfg, must have a schema in
// schemas; a missing one is an internal error.
func PlanJSON(p *plans.Plan, schemas providers.Schemas, cfg *configs.Module) (*PlanDocument, error) {
	out := &tfjson.Plan{
		FormatVersion:    planFormatVersion,
		TerraformVersion: TerraformVersion,
		Timestamp:        p.Timestamp.UTC().Format(time.RFC3339),
	}
	var err error
	if out.Variables, err = variablesJSON(p.VariableValues); err != nil {
		return nil, err
	}
	changes := sortedChanges(p.Changes)
	if out.PlannedValues, err = plannedValuesJSON(changes, p.Outputs, schemas); err != nil {
		return nil, err
	}
	drift, err := driftChanges(p, schemas)
	if err != nil {
		return nil, err
	}
	if out.ResourceDrift, err = resourceChangesJSON(drift, schemas); err != nil {
		return nil, err
	}
	if out.ResourceChanges, err = resourceChangesJSON(changes, schemas); err != nil {
		return nil, err
	}
	if out.OutputChanges, err = outputChangesJSON(p.Outputs); err != nil {
		return nil, err
	}
	if !p.PriorState.Empty() {
		if out.PriorState, err = StateJSON(p.PriorState, schemas); err != nil {
			return nil, fmt.Errorf("prior state: %w", err)
		}
	}
	for _, ra := range p.RelevantAttributes {
		out.RelevantAttributes = append(out.RelevantAttributes, tfjson.ResourceAttribute{Resource: ra.Resource, Attribute: ra.Attribute})
	}
	out.Checks = checksJSON(p.Checks)
	doc := &PlanDocument{Plan: out, errored: p.Errored}
	if cfg != nil {
		if doc.config, err = configJSON(cfg, schemas, generatedResources(p)); err != nil {
			return nil, fmt.Errorf("configuration: %w", err)
		}
	}
	return doc, nil
}

// generatedResources names the root module resources whose block plan
// -generate-config-out wrote.
func generatedResources(p *plans.Plan) map[string]bool {
	var out map[string]bool
	for _, c := range p.Changes {
		if c.Importing != nil && c.Importing.GeneratedConfig != "" && c.Addr.Module.IsRoot() {
			if out == nil {
				out = map[string]bool{}
			}
			out[c.Addr.Resource.Resource.String()] = true
		}
	}
	return out
}

// sortedChanges returns the changes in address order, then deposed key.
func sortedChanges(cs []*plans.ResourceInstanceChange) []*plans.ResourceInstanceChange {
	out := append([]*plans.ResourceInstanceChange(nil), cs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !a.Addr.Equal(b.Addr) {
			return a.Addr.Less(b.Addr)
		}
		return a.DeposedKey < b.DeposedKey
	})
	return out
}

func variablesJSON(vars map[string]cty.Value) (map[string]*tfjson.PlanVariable, error) {
	if len(vars) == 0 {
		return nil, nil
	}
	out := make(map[string]*tfjson.PlanVariable, len(vars))
	for name, v := range vars {
		g, err := generic(unmarkDeep(v))
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", name, err)
		}
		out[name] = &tfjson.PlanVariable{Value: g}
	}
	return out, nil
}

// plannedValuesJSON describes what will exist after apply.
func plannedValuesJSON(changes []*plans.ResourceInstanceChange, outputs []*plans.OutputChange, schemas providers.Schemas) (*tfjson.StateValues, error) {
	pv := &tfjson.StateValues{}
	modules := newModuleValues()
	for _, o := range outputs {
		if o.Action == plans.Delete {
			continue
		}
		if pv.Outputs == nil {
			pv.Outputs = map[string]*tfjson.StateOutput{}
		}
		so := &tfjson.StateOutput{Sensitive: o.Sensitive}
		if after := unmarkDeep(o.After); after != cty.NilVal && after.IsWhollyKnown() {
			g, err := generic(after)
			if err != nil {
				return nil, fmt.Errorf("output %s: %w", o.Name, err)
			}
			so.Value, so.Type = orJSONNull(g), after.Type()
		}
		pv.Outputs[o.Name] = so
	}
	for _, c := range changes {
		if c.Action == plans.Delete || c.DeposedKey != "" {
			continue
		}
		r, err := plannedResourceJSON(c, schemas)
		if err != nil {
			return nil, err
		}
		modules.add(c.Addr.Module, r)
	}
	pv.RootModule = modules.root()
	return pv, nil
}

// plannedResourceJSON describes one instance as it will be after apply.
func plannedResourceJSON(c *plans.ResourceInstanceChange, schemas providers.Schemas) (*tfjson.StateResource, error) {
	schema, version, err := resourceSchema(schemas, c.Provider.Provider, c.Addr)
	if err != nil {
		return nil, err
	}
	r := resourceHead(c.Addr, c.Provider)
	r.SchemaVersion = uint64(version)
	marked := withSchemaMarks(c.After, schema)
	if after := unmarkDeep(c.After); after != cty.NilVal {
		if r.AttributeValues, err = attributeValues(after); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Addr, err)
		}
		r.SensitiveValues = maskJSON(sensitiveMask(marked))
	}
	return r, nil
}

// resourceChangesJSON describes resource changes; deletions of data
// resources are bookkeeping and left out.
func resourceChangesJSON(changes []*plans.ResourceInstanceChange, schemas providers.Schemas) ([]*tfjson.ResourceChange, error) {
	var out []*tfjson.ResourceChange
	for _, c := range changes {
		if c.Action == plans.Delete && c.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
			continue
		}
		rc, err := resourceChangeJSON(c, schemas)
		if err != nil {
			return nil, err
		}
		out = append(out, rc)
	}
	return out, nil
}

func resourceChangeJSON(c *plans.ResourceInstanceChange, schemas providers.Schemas) (*tfjson.ResourceChange, error) {
	schema, _, err := resourceSchema(schemas, c.Provider.Provider, c.Addr)
	if err != nil {
		return nil, err
	}
	head := resourceHead(c.Addr, c.Provider)
	rc := &tfjson.ResourceChange{
		Address: head.Address, ModuleAddress: c.Addr.Module.String(), Mode: head.Mode, Type: head.Type, Name: head.Name,
		Index: head.Index, ProviderName: head.ProviderName,
		DeposedKey:   string(c.DeposedKey),
		ActionReason: tfjson.ActionReason(c.ActionReason.JSON()),
	}
	if c.Moved() {
		rc.PreviousAddress = c.PrevRunAddr.String()
	}
	ch, err := changeJSON(withSchemaMarks(c.Before, schema), withSchemaMarks(c.After, schema))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Addr, err)
	}
	ch.Actions = actionsJSON(c.Action)
	if c.Importing != nil {
		ch.Importing = &tfjson.Importing{ID: c.Importing.ID}
		if len(c.Importing.Identity) > 0 {
			ch.Importing.Identity = json.RawMessage(c.Importing.Identity)
		}
		ch.GeneratedConfig = c.Importing.GeneratedConfig
	}
	for _, p := range c.RequiredReplace {
		ch.ReplacePaths = append(ch.ReplacePaths, pathJSON(p))
	}
	rc.Change = ch
	return rc, nil
}

// changeJSON describes a before and after value (marked) with their masks.
func changeJSON(before, after cty.Value) (*tfjson.Change, error) {
	ch := &tfjson.Change{}
	var err error
	if before != cty.NilVal {
		if ch.Before, err = generic(unmarkDeep(before)); err != nil {
			return nil, err
		}
		ch.BeforeSensitive = sensitiveMask(before)
	}
	if after != cty.NilVal {
		plain := unmarkDeep(after)
		ch.AfterUnknown = map[string]any{}
		if !plain.IsWhollyKnown() {
			ch.AfterUnknown = unknownMask(plain)
		}
		if ch.After, err = knownPart(plain); err != nil {
			return nil, err
		}
		if plain.IsKnown() && plain.IsNull() {
			ch.After = jsonNullValue
		}
		ch.AfterSensitive = sensitiveMask(after)
	}
	return ch, nil
}

// actionsJSON returns an action as the list the JSON plan uses.
func actionsJSON(a plans.Action) tfjson.Actions {
	var out tfjson.Actions
	for _, s := range a.JSONActions() {
		out = append(out, tfjson.Action(s))
	}
	return out
}

// pathJSON returns a path as a list of steps: attribute names and index
// keys as JSON values.
func pathJSON(p cty.Path) any {
	steps := make([]any, 0, len(p))
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			steps = append(steps, s.Name)
		case cty.IndexStep:
			g, err := generic(s.Key)
			if err != nil {
				g = nil
			}
			steps = append(steps, g)
		}
	}
	return steps
}

// outputChangesJSON describes output changes. Outputs are sensitive as a
// whole, so both masks are one bool.
func outputChangesJSON(outputs []*plans.OutputChange) (map[string]*tfjson.Change, error) {
	if len(outputs) == 0 {
		return nil, nil
	}
	out := make(map[string]*tfjson.Change, len(outputs))
	for _, o := range outputs {
		ch, err := changeJSON(unmarkDeep(o.Before), unmarkDeep(o.After))
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Name, err)
		}
		ch.Actions = actionsJSON(o.Action)
		ch.BeforeSensitive, ch.AfterSensitive = o.Sensitive, o.Sensitive
		if o.After != cty.NilVal {
			known := unmarkDeep(o.After).IsWhollyKnown()
			ch.AfterUnknown = !known
			if !known {
				ch.AfterUnknown = unknownMask(unmarkDeep(o.After))
			}
		}
		out[o.Name] = ch
	}
	return out, nil
}

// jsonNullValue is a JSON null that survives omitempty: Terraform writes
// "after": null and "value": null for a known null, where the
// terraform-json structs would drop a nil interface.
var jsonNullValue = json.RawMessage("null")

// orJSONNull returns g, or an explicit JSON null for nil.
func orJSONNull(g any) any {
	if g == nil {
		return jsonNullValue
	}
	return g
}
