package awscc

import (
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Write-only twins: for each string property the CloudFormation schema
// lists in writeOnlyProperties (a password, a secret string), the
// resource also has NAME_wo, a write-only attribute (protocol 6.8), and
// NAME_wo_version, as the AWS provider names them (password_wo,
// password_wo_version). The twin's value is sent to Cloud Control on
// create, and on an update that changes the version; the engine keeps it
// out of plan and state, where NAME itself would be kept. Like every
// write-only property, the twin is Masked, not Sensitive (see annotate).
//
// A property inside nested objects (LoginProfile/Password) has its twin
// at the top level, named by its path (login_profile_password_wo): the
// framework allows no write-only attribute inside a Computed nested
// attribute, which every optional awscc object is. Properties inside
// arrays or maps have none (which element would the twin set?).
//
// A twin and its property are mutually exclusive. Where the property
// must be set (Required, or NotNull inside an object that is set), the
// twin makes it optional and exactly one of the two must be set. The
// version of a create-only property's twin replaces the resource when it
// changes, as the property itself does.
const (
	twinSuffix        = "_wo"
	twinVersionSuffix = "_wo_version"
)

// twin is the write-only twin of one property.
type twin struct {
	prop *cfnschema.Attribute
	// base is the twin's name without its suffix: the property's
	// Terraform path joined with "_" (password, login_profile_password).
	base string
	// cfnPath is the property's CloudFormation path from the resource's
	// properties (LoginProfile, Password).
	cfnPath []string
	// exactlyOne: the property must be set when its object is, so the
	// twin stands in for it.
	exactlyOne bool
}

func (tw twin) name() string    { return tw.base + twinSuffix }
func (tw twin) version() string { return tw.base + twinVersionSuffix }

// propPath is the property's attribute path in the schema.
func (tw twin) propPath() path.Expression {
	e := path.MatchRoot(tw.prop.Path[0])
	for _, n := range tw.prop.Path[1:] {
		e = e.AtName(n)
	}
	return e
}

// twinsOf returns the twins of t's write-only properties. It walks the
// attributes reached through objects only: a scan, cheap enough not to
// be cached (see docs/design/performance.md, write-only twins).
func twinsOf(t *cfnschema.ResourceType) []twin {
	if len(t.WriteOnly) == 0 {
		return nil
	}
	var out []twin
	collectTwins(t.Attributes, nil, &out)
	return out
}

// collectTwins appends the twins of attrs, the attributes of an object
// at CloudFormation path at.
func collectTwins(attrs cfnschema.Attributes, at []string, out *[]twin) {
	for _, a := range attrs {
		if a.CFNName == "" || a.InElementType || !(a.Required || a.Optional) {
			continue
		}
		switch {
		case a.Type.Kind == cfnschema.KindObject:
			// A write-only object's members are write-only too: each
			// string one gets its twin.
			collectTwins(a.Type.Attributes, append(at[:len(at):len(at)], a.CFNName), out)
		case a.WriteOnly && a.Type.Kind == cfnschema.KindString:
			*out = append(*out, twin{prop: a, base: strings.Join(a.Path, "_"),
				cfnPath: append(at[:len(at):len(at)], a.CFNName), exactlyOne: a.Required || a.NotNull})
		}
	}
}

// addWriteOnlyTwins adds the twins of t's write-only properties to s, and
// makes optional the properties a twin may stand in for.
func addWriteOnlyTwins(t *cfnschema.ResourceType, s *schema.Schema) {
	for _, tw := range twinsOf(t) {
		wo, ver := tw.name(), tw.version()
		if _, taken := s.Attributes[wo]; taken {
			continue
		}
		if _, taken := s.Attributes[ver]; taken {
			continue
		}
		twinAttr := schema.StringAttribute{
			Optional: true, WriteOnly: true,
			Description: "Write-only twin of " + tw.prop.Path.String() + ": sent to Cloud Control as " + strings.Join(tw.cfnPath, "/") + " on create and when " + ver + " changes, and never kept in plan or state.",
		}
		if tw.exactlyOne {
			if !relaxProperty(s.Attributes, tw) {
				continue
			}
		} else {
			twinAttr.Validators = []validator.String{stringvalidator.ConflictsWith(tw.propPath())}
		}
		verAttr := schema.Int64Attribute{Optional: true, Description: "Change this to send " + wo + " again in an update."}
		if tw.prop.CreateOnly {
			verAttr.Description = "Change this to send " + wo + " again: it replaces the resource, as a change of " + tw.prop.Path.String() + " does."
			verAttr.PlanModifiers = []planmodifier.Int64{int64planmodifier.RequiresReplace()}
		}
		s.Attributes[wo], s.Attributes[ver] = twinAttr, verAttr
	}
}

// relaxProperty makes the property of tw, which must be set, optional
// with its twin as the other way to set it: exactly one of the two, with
// Terraform's "Invalid Attribute Combination" naming both. It reports
// false (no twin) where the schema is not the shape the property says.
func relaxProperty(attrs map[string]schema.Attribute, tw twin) bool {
	names := tw.prop.Path
	for _, n := range names[:len(names)-1] {
		obj, ok := attrs[n].(schema.SingleNestedAttribute)
		if !ok {
			return false
		}
		// The nested map is this schema's own (ResourceSchema builds a
		// new one on every call), so it may be edited in place.
		attrs = obj.Attributes
	}
	last := names[len(names)-1]
	a, ok := attrs[last].(schema.StringAttribute)
	if !ok {
		return false
	}
	a.Required, a.Optional = false, true
	vs := make([]validator.String, 0, len(a.Validators)+1)
	for _, v := range a.Validators {
		if !cfnschema.IsNotNull(v) {
			vs = append(vs, v)
		}
	}
	// Both paths given, so the message names both.
	a.Validators = append(vs, stringvalidator.ExactlyOneOf(tw.propPath(), path.MatchRoot(tw.name())))
	attrs[last] = a
	return true
}

// markTwinsMasked masks the twins in the engine's copy of the schema, as
// markMasked does their properties.
func markTwinsMasked(t *cfnschema.ResourceType, block *configschema.Block) {
	for _, tw := range twinsOf(t) {
		if ca := block.Attributes[tw.name()]; ca != nil {
			ca.Masked = true
		}
	}
}
