package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// decodeRequiredProviders decodes a required_providers block: one argument
// per provider local name.
func (b *moduleBuilder) decodeRequiredProviders(block *hcl.Block) {
	attrs, diags := block.Body.JustAttributes()
	b.report(diags)
	for _, attr := range attrsInSourceOrder(attrs) {
		rp, ds := decodeRequiredProvider(attr)
		b.report(ds)
		if rp != nil {
			b.addRequiredProvider(rp)
		}
	}
}

// decodeRequiredProvider decodes NAME = { source = "...", version = "..." }
// or the older NAME = "VERSION" form, where the source is implied by the
// name. It returns nil when the entry is unusable.
func decodeRequiredProvider(attr *hcl.Attribute) (*RequiredProvider, hcl.Diagnostics) {
	rp := &RequiredProvider{Name: attr.Name, DeclRange: attr.NameRange}
	if attr.Name == "terraform" && !declaresBuiltin(attr.Expr) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid provider local name",
			Detail: "The name \"terraform\" is reserved for the built-in provider terraform.io/builtin/terraform, " +
				"which needs no required_providers entry unless the module calls its functions " +
				"(terraform = { source = \"terraform.io/builtin/terraform\" }).",
			Subject: attr.NameRange.Ptr(),
		}}
	}
	if diags := checkProviderLocalName(attr.Name, attr.NameRange); diags.HasErrors() {
		return nil, diags
	}

	if isStringValued(attr.Expr) {
		vc, ok, diags := decodeVersionConstraint("version", attr.Expr)
		if !ok {
			return nil, diags
		}
		rp.Versions = []VersionConstraint{vc}
		rp.Source = addrs.NewDefaultProvider(attr.Name)
		return rp, diags
	}

	kvs, diags := hcl.ExprMap(attr.Expr)
	if diags.HasErrors() {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid required_providers entry",
			Detail: fmt.Sprintf("The entry for %q must be an object such as { source = \"hashicorp/%s\", "+
				"version = \"~> 1.0\" }.", attr.Name, attr.Name),
			Subject: attr.Expr.Range().Ptr(),
		}}
	}
	for _, kv := range kvs {
		diags = append(diags, rp.decodeSetting(kv)...)
	}
	if rp.Source.IsZero() {
		rp.Source = addrs.NewDefaultProvider(attr.Name)
	}
	return rp, diags
}

// declaresBuiltin reports whether a required_providers entry is
// { source = "terraform.io/builtin/terraform" }: how a module declares the
// built-in provider to call provider::terraform::encode_tfvars and the
// others (Terraform 1.8, OpenTofu 1.7).
func declaresBuiltin(expr hcl.Expression) bool {
	kvs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return false
	}
	for _, kv := range kvs {
		if key, _ := objectKey(kv.Key); key != "source" {
			continue
		}
		s, ok, _ := staticString("source", kv.Value)
		if !ok {
			return false
		}
		p, err := addrs.ParseProviderSource(s)
		return err == nil && p == addrs.NewBuiltInProvider("terraform")
	}
	return false
}

// isStringValued reports whether expr is a constant string, the legacy
// version-only form of an entry in either syntax.
func isStringValued(expr hcl.Expression) bool {
	v, diags := expr.Value(nil)
	return !diags.HasErrors() && v.Type().Equals(cty.String)
}

// decodeSetting decodes one key of a required_providers object.
func (rp *RequiredProvider) decodeSetting(kv hcl.KeyValuePair) hcl.Diagnostics {
	key, diags := objectKey(kv.Key)
	if diags.HasErrors() {
		return diags
	}
	switch key {
	case "source":
		s, ok, diags := staticString("source", kv.Value)
		if !ok {
			return diags
		}
		p, err := addrs.ParseProviderSource(s)
		if err != nil {
			return append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid provider source string",
				Detail: fmt.Sprintf("%s. A source address has the form [HOSTNAME/]NAMESPACE/TYPE, "+
					"such as \"hashicorp/aws\".", err),
				Subject: kv.Value.Range().Ptr(),
			})
		}
		rp.Source = p
		return diags
	case "version":
		vc, ok, diags := decodeVersionConstraint("version", kv.Value)
		if ok {
			rp.Versions = append(rp.Versions, vc)
		}
		return diags
	case "configuration_aliases":
		// Aliases a child module expects its caller to pass. They are
		// recorded for the configuration's JSON description, which lists
		// them; resolving providers needs only the caller's providers
		// argument, but the references must still be well formed.
		aliases, diags := decodeConfigurationAliases(kv.Value)
		rp.Aliases = append(rp.Aliases, aliases...)
		return diags
	default:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid required_providers object",
			Detail: fmt.Sprintf("A required_providers entry may set only \"source\", \"version\" and "+
				"\"configuration_aliases\"; remove %q.", key),
			Subject: kv.Key.Range().Ptr(),
		}}
	}
}

// objectKey returns the static string key of an object constructor item:
// a bare name or a quoted string.
func objectKey(expr hcl.Expression) (string, hcl.Diagnostics) {
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		return kw, nil
	}
	v, diags := staticValue(expr)
	if !diags.HasErrors() {
		if s, err := convert.Convert(v, cty.String); err == nil && !s.IsNull() && s.IsKnown() {
			return s.AsString(), nil
		}
	}
	return "", hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid object key",
		Detail:   "Keys here must be literal names, such as source or version.",
		Subject:  expr.Range().Ptr(),
	}}
}

// decodeConfigurationAliases checks that configuration_aliases is a list
// of NAME.ALIAS references and returns the well-formed ones, in order.
func decodeConfigurationAliases(expr hcl.Expression) ([]ProviderConfigAlias, hcl.Diagnostics) {
	var out []ProviderConfigAlias
	exprs, diags := hcl.ExprList(expr)
	for _, e := range exprs {
		ref, ds := decodeProviderConfigRef(e)
		diags = append(diags, ds...)
		if ref != nil && ref.Alias != "" && ref.KeyExpr == nil {
			out = append(out, ProviderConfigAlias{Name: ref.Name, Alias: ref.Alias})
		}
		if ref != nil && (ref.Alias == "" || ref.KeyExpr != nil) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid configuration alias",
				Detail:   "Each configuration_aliases entry names an aliased configuration: NAME.ALIAS.",
				Subject:  e.Range().Ptr(),
			})
		}
	}
	return out, diags
}
