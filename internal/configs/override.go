package configs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// mergeOverrideFile merges one override file into the module built from
// the primary files, as Terraform 1.5 does: the file is decoded on its own
// and each object in it must match one the primary files declared, whose
// settings it then replaces argument by argument.
func (b *moduleBuilder) mergeOverrideFile(body hcl.Body) {
	ob := newModuleBuilder(b.mod.SourceDir)
	ob.overriding = true
	ob.decodeFile(body)
	b.report(ob.diags)
	b.mergeTerraformSettings(ob.mod)
	b.mergeProviders(ob.providers)
	b.mergeVariables(ob.variables)
	b.mergeLocals(ob.locals)
	b.mergeOutputs(ob.outputs)
	b.mergeResources(ob.resources)
	b.mergeModuleCalls(ob.moduleCalls)
	for _, m := range ob.mod.Moved {
		b.report(notOverridable("moved", "Records of moved objects", m.DeclRange))
	}
	for _, r := range ob.mod.Removed {
		b.report(notOverridable("removed", "Removed blocks", r.DeclRange))
	}
	for _, imp := range ob.mod.Imports {
		b.report(notOverridable("import", "Import blocks", imp.DeclRange))
	}
}

// notOverridable refuses a block type override files may not hold, in
// Terraform's words.
func notOverridable(blockType, what string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Cannot override '%s' blocks", blockType),
		Detail:   what + " can appear only in normal files, not in override files.",
		Subject:  rng.Ptr(),
	}}
}

// mergeTerraformSettings applies an override file's terraform block:
// required_version and backend replace the primary files', and each
// required_providers entry replaces the entry of that name.
func (b *moduleBuilder) mergeTerraformSettings(o *Module) {
	if len(o.RequiredVersions) != 0 {
		b.mod.RequiredVersions = o.RequiredVersions
	}
	if o.Backend != nil {
		b.mod.Backend = o.Backend
	}
	for name, rp := range o.RequiredProviders {
		b.mod.RequiredProviders[name] = rp
	}
}

// mergeProviders merges provider blocks. A default configuration needs no
// base, since an absent provider block means an empty one; an aliased one
// does, so a misspelt alias is reported instead of silently ignored.
func (b *moduleBuilder) mergeProviders(providers []*Provider) {
	for _, op := range providers {
		key := ProviderConfigKey(op.Name, op.Alias)
		base, ok := b.mod.ProviderConfigs[key]
		switch {
		case ok:
			base.Config = overrideBody(base.Config, op.Config)
			if op.ForEach != nil {
				base.ForEach = op.ForEach
			}
		case op.Alias == "":
			b.mod.ProviderConfigs[key] = op
		default:
			b.report(missingBase("Missing base provider configuration for override",
				fmt.Sprintf("There is no %s provider configuration with the alias %q. An override file can "+
					"only override an aliased provider configuration that was already defined in a primary "+
					"configuration file.", op.Name, op.Alias), op.DeclRange))
		}
	}
}

func (b *moduleBuilder) mergeVariables(variables []*Variable) {
	for _, ov := range variables {
		name := ov.Name
		v, ok := b.mod.Variables[name]
		if !ok {
			b.report(missingBase("Missing base variable declaration to override",
				fmt.Sprintf("There is no variable named %q. An override file can only override a variable "+
					"that was already declared in a primary configuration file.", name), ov.DeclRange))
			continue
		}
		b.report(v.merge(ov))
	}
}

// merge replaces the variable's arguments that ov sets, then checks the
// default against the type and nullability that result.
func (v *Variable) merge(ov *Variable) hcl.Diagnostics {
	if ov.DescriptionSet {
		v.Description, v.DescriptionSet = ov.Description, true
	}
	if ov.EphemeralSet {
		v.Ephemeral, v.EphemeralSet = ov.Ephemeral, true
	}
	if ov.SensitiveSet {
		v.Sensitive, v.SensitiveSet = ov.Sensitive, true
	}
	if ov.TypeSet {
		v.Type, v.TypeDefaults, v.ParsingMode, v.TypeSet = ov.Type, ov.TypeDefaults, ov.ParsingMode, true
	}
	if ov.NullableSet {
		v.Nullable, v.NullableSet = ov.Nullable, true
	}
	if ov.ConstSet {
		v.Const, v.ConstSet = ov.Const, true
	}
	if ov.Default != cty.NilVal {
		v.Default = ov.Default
	}
	if v.Default == cty.NilVal {
		return nil
	}
	val, err := convert.Convert(v.Default, v.Type)
	if err != nil {
		detail := fmt.Sprintf("This variable's default value is not compatible with its type constraint: %s.", err)
		switch {
		case ov.TypeSet && ov.Default == cty.NilVal:
			detail = fmt.Sprintf("Overriding this variable's type constraint has made its default value "+
				"invalid: %s.", err)
		case !ov.TypeSet && ov.Default != cty.NilVal:
			detail = fmt.Sprintf("The overridden default value for this variable is not compatible with "+
				"the variable's type constraint: %s.", err)
		}
		return invalidOverrideDefault(detail, ov.DeclRange)
	}
	v.Default = val
	if !v.Nullable && val.IsNull() {
		return invalidOverrideDefault("A null default value is not valid when nullable=false.", ov.DeclRange)
	}
	return nil
}

func invalidOverrideDefault(detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid default value for variable",
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}

// mergeLocals replaces each named local's expression; the range moves to
// the override so errors point at the expression that is used.
func (b *moduleBuilder) mergeLocals(locals []*Local) {
	for _, ol := range locals {
		l, ok := b.mod.Locals[ol.Name]
		if !ok {
			b.report(missingBase("Missing base local value definition to override",
				fmt.Sprintf("There is no local value named %q. An override file can only override a local "+
					"value that was already defined in a primary configuration file.", ol.Name), ol.DeclRange))
			continue
		}
		l.Expr, l.DeclRange = ol.Expr, ol.DeclRange
	}
}

func (b *moduleBuilder) mergeOutputs(outputs []*Output) {
	for _, oo := range outputs {
		o, ok := b.mod.Outputs[oo.Name]
		if !ok {
			b.report(missingBase("Missing base output definition to override",
				fmt.Sprintf("There is no output named %q. An override file can only override an output that "+
					"was already defined in a primary configuration file.", oo.Name), oo.DeclRange))
			continue
		}
		if oo.Description != "" {
			o.Description = oo.Description
		}
		if oo.Expr != nil {
			o.Expr = oo.Expr
		}
		if oo.TypeSet {
			o.Type, o.TypeDefaults, o.TypeSet = oo.Type, oo.TypeDefaults, true
		}
		if oo.EphemeralSet {
			o.Ephemeral, o.EphemeralSet = oo.Ephemeral, true
		}
		if oo.SensitiveSet {
			o.Sensitive, o.SensitiveSet = oo.Sensitive, true
		}
		if len(oo.DependsOn) != 0 {
			b.report(dependsOnOverride(oo.DependsOn[0]))
		}
	}
}

func missingBase(summary, detail string, rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}}
}

// dependsOnOverride refuses depends_on in an override file, as Terraform
// does: changing an object's dependencies from another file is too easy to
// miss when reading the configuration.
func dependsOnOverride(first hcl.Traversal) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported override",
		Detail:   "The depends_on argument may not be overridden.",
		Subject:  first.SourceRange().Ptr(),
	}}
}
