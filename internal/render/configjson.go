package render

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// configDoc is the "configuration" of a JSON plan as Terraform 1.5.7
// writes it. Its own types, not terraform-json's, because Terraform writes
// what terraform-json cannot: an explicit "constant_value": null, an
// empty expression {} (a value only known when planning, such as
// uuid()), a single nested block as an object and "default": null.
type configDoc struct {
	ProviderConfigs map[string]*providerConfigDoc `json:"provider_config,omitempty"`
	RootModule      moduleDoc                     `json:"root_module"`
}

type providerConfigDoc struct {
	Name              string         `json:"name,omitempty"`
	FullName          string         `json:"full_name,omitempty"`
	Alias             string         `json:"alias,omitempty"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	ModuleAddress     string         `json:"module_address,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	// parentKey is the key of the configuration this one stands for (a
	// configuration a module inherits or is passed): resources using it
	// are given parentKey, and the entry itself is left out.
	parentKey string
}

type moduleDoc struct {
	Outputs     map[string]*outputDoc     `json:"outputs,omitempty"`
	Resources   []*resourceDoc            `json:"resources,omitempty"`
	ModuleCalls map[string]*moduleCallDoc `json:"module_calls,omitempty"`
	Variables   map[string]*variableDoc   `json:"variables,omitempty"`
}

type moduleCallDoc struct {
	Source            string         `json:"source,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	CountExpression   *exprDoc       `json:"count_expression,omitempty"`
	ForEachExpression *exprDoc       `json:"for_each_expression,omitempty"`
	Module            moduleDoc      `json:"module"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

// variableDoc and outputDoc carry, besides Terraform 1.5.7's fields,
// OpenTofu's ephemeral and deprecated, written only when set (Terraform
// 1.5.7 has neither).
type variableDoc struct {
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
	Ephemeral   bool            `json:"ephemeral,omitempty"`
	Deprecated  string          `json:"deprecated,omitempty"`
}

type resourceDoc struct {
	Address           string         `json:"address,omitempty"`
	Mode              string         `json:"mode,omitempty"`
	Type              string         `json:"type,omitempty"`
	Name              string         `json:"name,omitempty"`
	ProviderConfigKey string         `json:"provider_config_key,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	SchemaVersion     uint64         `json:"schema_version"`
	CountExpression   *exprDoc       `json:"count_expression,omitempty"`
	ForEachExpression *exprDoc       `json:"for_each_expression,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

type outputDoc struct {
	Sensitive   bool     `json:"sensitive,omitempty"`
	Expression  exprDoc  `json:"expression"`
	DependsOn   []string `json:"depends_on,omitempty"`
	Description string   `json:"description,omitempty"`
	Ephemeral   bool     `json:"ephemeral,omitempty"`
	Deprecated  string   `json:"deprecated,omitempty"`
}

// configJSON describes the configuration a plan was made from, as
// `terraform show -json PLANFILE` does: every provider configuration
// (declared, required, implied by a resource type, inherited or passed to
// a module), and per module its resources with their expressions, count
// and for_each, depends_on and schema version, its outputs, its
// variables with defaults, and its module calls with their source,
// version, arguments and the called module.
//
// Resources whose block plan -generate-config-out wrote (generated, by
// address in the root module) are left out: Terraform and OpenTofu
// describe the configuration as it was before the blocks were generated.
//
// schemas must hold the schema of every resource type the configuration
// uses; a missing one is an error, as in Terraform. Provisioners are
// never listed: Cairn refuses configurations that have them.
func configJSON(root *configs.Module, schemas providers.Schemas, generated map[string]bool) (*configDoc, error) {
	pcs := map[string]*providerConfigDoc{}
	providerConfigsJSON(root, schemas, pcs)
	mod, err := moduleJSON(root, schemas, generated)
	if err != nil {
		return nil, err
	}
	normaliseProviderKeys(&mod, pcs)
	for key, pc := range pcs {
		if pc.parentKey != "" {
			delete(pcs, key)
		}
	}
	return &configDoc{ProviderConfigs: pcs, RootModule: mod}, nil
}

// moduleJSON describes one module and, through its calls, the modules
// below it.
func moduleJSON(m *configs.Module, schemas providers.Schemas, generated map[string]bool) (moduleDoc, error) {
	var doc moduleDoc
	// Managed resources first, then data resources, then ephemeral
	// resources (as OpenTofu 1.12 lists them), each by address.
	for _, rs := range []map[string]*configs.Resource{m.ManagedResources, m.DataResources, m.EphemeralResources} {
		var part []*resourceDoc
		for _, r := range rs {
			if m.Path.IsRoot() && generated[r.Addr().String()] {
				continue
			}
			rd, err := resourceJSON(r, m.Path.String(), schemas)
			if err != nil {
				return doc, err
			}
			part = append(part, rd)
		}
		sort.Slice(part, func(i, j int) bool { return part[i].Address < part[j].Address })
		doc.Resources = append(doc.Resources, part...)
	}
	if len(m.Outputs) > 0 {
		doc.Outputs = make(map[string]*outputDoc, len(m.Outputs))
		for name, o := range m.Outputs {
			doc.Outputs[name] = &outputDoc{
				Sensitive: o.Sensitive, Expression: expressionJSON(o.Expr),
				DependsOn: dependsOnJSON(o.DependsOn), Description: o.Description,
				Ephemeral: o.Ephemeral, Deprecated: o.Deprecated,
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(m.ModuleCalls)) {
		mc, err := moduleCallJSON(m.ModuleCalls[name], schemas)
		if err != nil {
			return doc, err
		}
		if doc.ModuleCalls == nil {
			doc.ModuleCalls = map[string]*moduleCallDoc{}
		}
		doc.ModuleCalls[name] = mc
	}
	if len(m.Variables) > 0 {
		doc.Variables = make(map[string]*variableDoc, len(m.Variables))
		for name, v := range m.Variables {
			vd, err := variableJSON(v)
			if err != nil {
				return doc, err
			}
			doc.Variables[name] = vd
		}
	}
	return doc, nil
}

// variableJSON describes a variable block: its default (already of the
// declared type, optional attributes' defaults applied), description and
// sensitivity.
func variableJSON(v *configs.Variable) (*variableDoc, error) {
	vd := &variableDoc{Description: v.Description, Sensitive: v.Sensitive, Ephemeral: v.Ephemeral, Deprecated: v.Deprecated}
	if v.Default != cty.NilVal {
		b, err := ctyjson.Marshal(v.Default, v.Default.Type())
		if err != nil {
			return nil, fmt.Errorf("default of variable %q: %w", v.Name, err)
		}
		vd.Default = b
	}
	return vd, nil
}

// resourceJSON describes a resource or data block of the module at
// modulePath ("" for the root).
func resourceJSON(r *configs.Resource, modulePath string, schemas providers.Schemas) (*resourceDoc, error) {
	schema, version := schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	if schema == nil {
		return nil, fmt.Errorf("no schema for %s (provider %s)", r.Addr(), r.Provider)
	}
	name, alias := r.Addr().ImpliedProviderType(), ""
	if ref := r.ProviderConfigRef; ref != nil {
		name, alias = ref.Name, ref.Alias
	}
	rd := &resourceDoc{
		Address:           r.Addr().String(),
		Mode:              jsonModeName(r.Mode),
		Type:              r.Type,
		Name:              r.Name,
		ProviderConfigKey: moduleKey(configs.ProviderConfigKey(name, alias), modulePath),
		Expressions:       blockExpressionsJSON(r.Config, schema),
		SchemaVersion:     uint64(version),
		DependsOn:         dependsOnJSON(r.DependsOn),
	}
	rd.CountExpression, rd.ForEachExpression = repetitionJSON(r.Count, r.ForEach)
	return rd, nil
}

// repetitionJSON returns count's expression when it says something, else
// for_each's (Terraform writes one of them at most).
func repetitionJSON(count, forEach hcl.Expression) (*exprDoc, *exprDoc) {
	if c := expressionJSON(count); !c.empty() {
		return &c, nil
	}
	if f := expressionJSON(forEach); !f.empty() {
		return nil, &f
	}
	return nil, nil
}

// moduleCallJSON describes a module block and the module it calls.
func moduleCallJSON(mc *configs.ModuleCall, schemas providers.Schemas) (*moduleCallDoc, error) {
	if mc.Module == nil {
		return &moduleCallDoc{}, nil
	}
	doc := &moduleCallDoc{Source: mc.SourceAddr, VersionConstraint: mc.Version, DependsOn: dependsOnJSON(mc.DependsOn)}
	doc.CountExpression, doc.ForEachExpression = repetitionJSON(mc.Count, mc.ForEach)
	// The arguments are the child's variables, read as attributes.
	args := &configschema.Block{Attributes: make(map[string]*configschema.Attribute, len(mc.Module.Variables))}
	for name, v := range mc.Module.Variables {
		args.Attributes[name] = &configschema.Attribute{Type: cty.DynamicPseudoType, Optional: v.Default != cty.NilVal, Required: v.Default == cty.NilVal}
	}
	if mc.Config != nil {
		doc.Expressions = blockExpressionsJSON(mc.Config, args)
	}
	var err error
	doc.Module, err = moduleJSON(mc.Module, schemas, nil)
	return doc, err
}

// dependsOnJSON names what a depends_on argument refers to, as
// Terraform's reference parser names it; an entry that is not a
// reference is an empty string.
func dependsOnJSON(ts []hcl.Traversal) []string {
	if len(ts) == 0 {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		if ref, ds := addrs.ParseRef(t); !ds.HasErrors() {
			if r, ok := terraformRef(ref); ok {
				out[i] = r.subject
			}
		}
	}
	return out
}

// jsonModeName is the mode as the configuration document names it.
func jsonModeName(m addrs.ResourceMode) string {
	switch m {
	case addrs.DataResourceMode:
		return "data"
	case addrs.EphemeralResourceMode:
		return "ephemeral"
	}
	return "managed"
}

// moduleKey is an opaque key of a provider configuration in the module at
// modulePath: "random.second" in the root, "module.a:random" below it.
func moduleKey(name, modulePath string) string {
	if modulePath == "" {
		return name
	}
	return modulePath + ":" + name
}
