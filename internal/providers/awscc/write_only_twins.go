package awscc

import (
	"encoding/json"
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Write-only twins: for each top-level, optional string property the
// CloudFormation schema lists in writeOnlyProperties (a password, a
// secret string), the resource also has NAME_wo, a write-only attribute
// (protocol 6.8), and NAME_wo_version, as the AWS provider names them
// (password_wo, password_wo_version). The twin's value is sent to Cloud
// Control on create, and on an update that changes the version; the
// engine keeps it out of plan and state, where NAME itself would be kept.
// A twin and its property are mutually exclusive. Like every write-only
// property, the twin is Masked, not Sensitive (see annotate).
const (
	twinSuffix        = "_wo"
	twinVersionSuffix = "_wo_version"
)

// twinsOf returns the properties of t that have write-only twins. It is
// cheap (a scan of the top-level attributes), so it is not cached.
func twinsOf(t *cfnschema.ResourceType) []*cfnschema.Attribute {
	var out []*cfnschema.Attribute
	for _, a := range t.Attributes {
		if a.WriteOnly && a.Optional && !a.Required && len(a.Path) == 1 && a.CFNName != "" && a.Type.Kind == cfnschema.KindString {
			out = append(out, a)
		}
	}
	return out
}

// addWriteOnlyTwins adds the twins of t's write-only properties to s.
func addWriteOnlyTwins(t *cfnschema.ResourceType, s *schema.Schema) {
	for _, a := range twinsOf(t) {
		wo, ver := a.Name+twinSuffix, a.Name+twinVersionSuffix
		if _, taken := s.Attributes[wo]; taken {
			continue
		}
		if _, taken := s.Attributes[ver]; taken {
			continue
		}
		s.Attributes[wo] = schema.StringAttribute{
			Optional: true, WriteOnly: true,
			Description: "Write-only twin of " + a.Name + ": sent to Cloud Control as " + a.CFNName + " on create and when " + ver + " changes, and never kept in plan or state.",
			Validators:  []validator.String{stringvalidator.ConflictsWith(path.MatchRoot(a.Name))},
		}
		s.Attributes[ver] = schema.Int64Attribute{
			Optional:    true,
			Description: "Change this to send " + wo + " again in an update.",
		}
	}
}

// twinValues returns, by CloudFormation property name, the twins'
// values to send: those the configuration sets, all of them on a create
// (prior null), and on an update only those whose version changed.
func twinValues(t *cfnschema.ResourceType, config, prior, planned tftypes.Value) map[string]string {
	var out map[string]string
	for _, a := range twinsOf(t) {
		v := getAttr(config, a.Name+twinSuffix)
		var s string
		if v.Type() == nil || !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
			continue
		}
		if !prior.IsNull() {
			ver := a.Name + twinVersionSuffix
			if getAttr(prior, ver).Equal(getAttr(planned, ver)) {
				continue
			}
		}
		if out == nil {
			out = map[string]string{}
		}
		out[a.CFNName] = s
	}
	return out
}

// withTwins adds the twins' values to a desired-state document.
func withTwins(doc map[string]any, twins map[string]string) {
	for name, v := range twins {
		doc[name] = v
	}
}

// patchWithTwins appends to an update patch an add of each twin's value:
// the prior side of the patch never holds write-only properties (see
// updatePatch), so add is what sets them.
func patchWithTwins(patch string, twins map[string]string) (string, error) {
	if len(twins) == 0 {
		return patch, nil
	}
	var ops []map[string]any
	if err := json.Unmarshal([]byte(patch), &ops); err != nil {
		return "", err
	}
	for name, v := range twins {
		ops = append(ops, map[string]any{"op": "add", "path": "/" + escapePointer(name), "value": v})
	}
	b, err := json.Marshal(ops)
	return string(b), err
}

// escapePointer escapes a property name as an RFC 6901 reference token.
func escapePointer(s string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(s) }

// markTwinsMasked masks the twins in the engine's copy of the schema, as
// markMasked does their properties.
func markTwinsMasked(t *cfnschema.ResourceType, block *configschema.Block) {
	for _, a := range twinsOf(t) {
		if ca := block.Attributes[a.Name+twinSuffix]; ca != nil {
			ca.Masked = true
		}
	}
}
