package awscc

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cairn-iac/cairn/cfnschema"
)

// The attributes every identity has besides the primary identifier: where
// the resource lives. HashiCorp's awscc names and describes them so.
const (
	accountIDName        = "account_id"
	regionName           = "region"
	accountIDDescription = "AWS Account where this resource is managed"
	regionDescription    = "Region where this resource is managed"
)

// identityAttribute is one attribute of a type's resource identity
// (plugin protocol 6.9). Every identity attribute is a string.
type identityAttribute struct {
	name, description string
	// required is RequiredForImport: a primary identifier part. The
	// others (account_id, region) are OptionalForImport.
	required bool
	// part is the index of the primary identifier pointer whose value the
	// attribute holds (its place in the Cloud Control identifier); -1 for
	// account_id and region.
	part int
}

// identityAttributes returns a type's identity as HashiCorp's awscc
// (v1.97) defines it, sorted by name: one required attribute per
// primaryIdentifier pointer, then account_id and, unless the type's
// service is global, region, both optional. A primary identifier part
// named like one of those two gives way to it (AWS::Organizations::Account's
// AccountId); a global type keeps its own region (a NotificationHub's).
//
// A part's name is the snake-cased CloudFormation property name (each
// step of a nested pointer joined with "_"), not the resource attribute
// name: a top-level Id is "id" though the resource calls it
// <resource>_id. Its description is the property's first sentence;
// nested parts and renamed ones (provider_name) have none.
func identityAttributes(t *cfnschema.ResourceType) []identityAttribute {
	byName := make(map[string]identityAttribute, len(t.PrimaryIdentifier)+2)
	for i, p := range t.PrimaryIdentifier {
		name, desc := identityPart(t, p)
		byName[name] = identityAttribute{name: name, description: desc, required: true, part: i}
	}
	// A part named like a default keeps its place in the identifier, so
	// that an import by identity can name the object.
	byName[accountIDName] = identityAttribute{name: accountIDName, description: accountIDDescription, part: partOf(byName, accountIDName)}
	if !globalService(t.TypeName) {
		byName[regionName] = identityAttribute{name: regionName, description: regionDescription, part: partOf(byName, regionName)}
	}
	out := make([]identityAttribute, 0, len(byName))
	for _, a := range byName {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// partOf is the identifier part of the attribute called name, -1 for none.
func partOf(byName map[string]identityAttribute, name string) int {
	if a, ok := byName[name]; ok {
		return a.part
	}
	return -1
}

// identityPart names the identity attribute of a primaryIdentifier
// pointer (/properties/A/B) and gives its description.
func identityPart(t *cfnschema.ResourceType, pointer string) (name, description string) {
	steps := strings.Split(strings.TrimPrefix(pointer, "/properties/"), "/")
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = cfnschema.AttributeName(s)
	}
	if len(steps) > 1 {
		return strings.Join(names, "_"), ""
	}
	if names[0] == "provider" {
		return "provider_name", ""
	}
	if a := t.AttributeForPointer(pointer); a != nil {
		description = firstSentence(a.Description)
	}
	return names[0], description
}

// firstSentence is a description up to its first full stop.
func firstSentence(s string) string {
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return s[:i]
	}
	return s
}

// globalService reports whether a type's service is one whose resources
// HashiCorp's awscc identifies without a region (IAM, CloudFront,
// Route 53, Organizations, ...): the services it marks global.
func globalService(typeName string) bool {
	parts := strings.Split(typeName, "::")
	if len(parts) != 3 {
		return false
	}
	switch strings.ToLower(parts[1]) {
	case "bcmdataexports", "billing", "billingconductor", "budgets", "ce", "cloudfront", "cur",
		"globalaccelerator", "iam", "networkmanager", "notifications", "notificationscontacts",
		"organizations", "rolesanywhere", "route53", "route53recoverycontrol",
		"route53recoveryreadiness", "shield":
		return true
	}
	return false
}

// identitySchema is the framework's form of a type's identity. Its
// version is 0: nothing has changed since identities were introduced.
func identitySchema(t *cfnschema.ResourceType) identityschema.Schema {
	attrs := identityAttributes(t)
	s := identityschema.Schema{Attributes: make(map[string]identityschema.Attribute, len(attrs))}
	for _, a := range attrs {
		s.Attributes[a.name] = identityschema.StringAttribute{
			Description:       a.description,
			RequiredForImport: a.required,
			OptionalForImport: !a.required,
		}
	}
	return s
}

// identityType is the tftypes form of a type's identity.
func identityType(t *cfnschema.ResourceType) tftypes.Object {
	attrs := identityAttributes(t)
	ty := tftypes.Object{AttributeTypes: make(map[string]tftypes.Type, len(attrs))}
	for _, a := range attrs {
		ty.AttributeTypes[a.name] = tftypes.String
	}
	return ty
}

// IdentitySchema implements resource.ResourceWithIdentity.
func (r *ccResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identitySchema(r.t)
}

// identityShape is a type's identity attributes and value type, worked
// out once for the many values of a listing.
type identityShape struct {
	attrs []identityAttribute
	ty    tftypes.Object
}

func identityShapeOf(t *cfnschema.ResourceType) identityShape {
	return identityShape{attrs: identityAttributes(t), ty: identityType(t)}
}

// identityValue returns the identity of the object with Cloud Control
// identifier id: the primary identifier's parts from id (the parts joined
// with "|"), the runtime's account and region. Where the runtime does not
// know its account, prior's is kept (prior may be a zero Value), so an
// identity never changes while the object lives, as Terraform requires.
func (rt *runtime) identityValue(ctx context.Context, t *cfnschema.ResourceType, id string, prior tftypes.Value) tftypes.Value {
	return rt.identityOf(ctx, t, identityShapeOf(t), id, prior)
}

// identityOf is identityValue with the type's shape given.
func (rt *runtime) identityOf(ctx context.Context, t *cfnschema.ResourceType, sh identityShape, id string, prior tftypes.Value) tftypes.Value {
	parts := identifierParts(t, id)
	var priorMembers map[string]tftypes.Value
	if prior.Type() != nil && prior.IsKnown() && !prior.IsNull() {
		_ = prior.As(&priorMembers)
	}
	account := rt.accountID(ctx)
	members := make(map[string]tftypes.Value, len(sh.attrs))
	for _, a := range sh.attrs {
		var v any
		switch {
		case a.part >= 0 && a.part < len(parts):
			v = parts[a.part]
		case a.name == accountIDName && account != "":
			v = account
		case a.name == regionName && rt.region != "":
			v = rt.region
		}
		if v == nil {
			if pv, ok := priorMembers[a.name]; ok && pv.IsKnown() && !pv.IsNull() {
				members[a.name] = pv
				continue
			}
		}
		members[a.name] = tftypes.NewValue(tftypes.String, v)
	}
	return tftypes.NewValue(sh.ty, members)
}

// identifierParts splits a Cloud Control identifier into the values of
// the type's primary identifier; nil when it does not have one value per
// pointer.
func identifierParts(t *cfnschema.ResourceType, id string) []string {
	if id == "" {
		return nil
	}
	if len(t.PrimaryIdentifier) == 1 {
		return []string{id}
	}
	parts := strings.Split(id, "|")
	if len(parts) != len(t.PrimaryIdentifier) {
		return nil
	}
	return parts
}

// identifierFromIdentity is the Cloud Control identifier an import by
// identity names: the required parts in primary identifier order, joined
// with "|". An identity for another region or account than the
// provider's is refused: Cloud Control would look in the wrong place.
func (rt *runtime) identifierFromIdentity(ctx context.Context, t *cfnschema.ResourceType, identity tftypes.Value, ds *diag.Diagnostics) (string, bool) {
	members := map[string]tftypes.Value{}
	if err := identity.As(&members); err != nil {
		ds.AddError("Invalid identity", fmt.Sprintf("The identity of %s could not be read: %s.", t.TerraformName, err))
		return "", false
	}
	str := func(name string) string {
		var s string
		if v, ok := members[name]; ok && v.IsKnown() && !v.IsNull() {
			_ = v.As(&s)
		}
		return s
	}
	parts := make([]string, len(t.PrimaryIdentifier))
	for _, a := range identityAttributes(t) {
		if a.part < 0 {
			continue
		}
		if parts[a.part] = str(a.name); parts[a.part] == "" {
			ds.AddError("Missing identity attribute", fmt.Sprintf("Importing %s by identity needs %s.", t.TerraformName, a.name))
			return "", false
		}
	}
	for _, a := range identityAttributes(t) {
		if a.part >= 0 {
			continue
		}
		want, have := str(a.name), rt.region
		if a.name == accountIDName {
			have = rt.accountID(ctx)
		}
		if want != "" && have != "" && want != have {
			ds.AddError("Identity for another "+strings.ReplaceAll(a.name, "_id", ""),
				fmt.Sprintf("The identity names %s %q, but this awscc provider configuration manages %q. Import with a provider configuration for %q.", a.name, want, have, want))
			return "", false
		}
	}
	return strings.Join(parts, "|"), true
}
