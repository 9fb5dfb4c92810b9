package cfnschema

// Merge returns a catalog of every type of overlay and every type of base
// that overlay does not define (by CloudFormation type name): overlay wins.
// It is how private types and newer copies of public ones are laid over
// the schemas built into a binary. Neither input changes; the diagnostics
// are name clashes between the two (a base type whose Terraform name an
// overlay type of another CloudFormation name took is left out).
func Merge(base, overlay *Catalog) (*Catalog, Diagnostics) {
	types := make([]*ResourceType, 0, len(base.all)+len(overlay.all))
	for _, t := range overlay.all {
		types = append(types, shallowCopy(t))
	}
	for _, t := range base.all {
		if overlay.byCFN[t.TypeName] == nil {
			types = append(types, shallowCopy(t))
		}
	}
	return assemble(types)
}

// shallowCopy copies a type so that assemble may clear its plural name
// without touching the catalog it came from; everything else is shared,
// immutable.
func shallowCopy(t *ResourceType) *ResourceType {
	c := *t
	return &c
}

// TerraformNames returns the Terraform names a CloudFormation type name
// gets — resource (and singular data source) and plural data source —
// without loading its schema, so that a caller can pick which schemas to
// load from the names a configuration uses. The plural name is the one the
// type gets when it can be listed.
func TerraformNames(typeName string, opts ...Option) (resource, plural string, err error) {
	o := newOptions(opts)
	tn, err := parseTypeName(typeName, o.prefixes)
	if err != nil {
		return "", "", err
	}
	return tn.Terraform, PluralName(tn.Terraform), nil
}
