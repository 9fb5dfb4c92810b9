package awscc

// IdentifierAttribute returns the attribute of a resource type whose value
// is the type's whole Cloud Control identifier and that the configuration
// sets (AWS::Logs::LogGroup's log_group_name): a resource of such a type
// can be named before it exists. ok is false when the identifier is
// read-only (AWS makes it up), made of several properties, or the type is
// unknown.
func (p *Provider) IdentifierAttribute(typeName string) (attr string, ok bool) {
	t := p.typeByTerraformName(typeName)
	if t == nil || len(t.PrimaryIdentifier) != 1 {
		return "", false
	}
	a := t.AttributeForPointer(t.PrimaryIdentifier[0])
	if a == nil || a.ReadOnly || !(a.Required || a.Optional) || len(a.Path) != 1 {
		return "", false
	}
	return a.Name, true
}
