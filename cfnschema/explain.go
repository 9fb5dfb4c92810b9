package cfnschema

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Explain renders a type for people: its names, then every attribute with
// its Terraform type, Required/Optional/Computed, the CloudFormation
// property it comes from, its validators and plan modifiers (as the
// framework describes them) and the reasons behind each decision. name is a
// CloudFormation type name or a Terraform resource or plural data source
// name. The error says when no loaded type has that name.
func (c *Catalog) Explain(name string) (string, error) {
	t := c.Type(name)
	if t == nil {
		t = c.ByTerraformName(name)
	}
	if t == nil {
		t = c.ByPluralName(name)
	}
	if t == nil {
		return "", fmt.Errorf("no resource type named %q is loaded", name)
	}
	return t.Explain(), nil
}

// Explain renders the type as Catalog.Explain describes. The text is stable:
// the same schema always renders the same way.
func (t *ResourceType) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", t.TypeName, filepath.Base(t.File))
	fmt.Fprintf(&b, "  resource and data source: %s\n", t.TerraformName)
	if t.PluralName != "" {
		fmt.Fprintf(&b, "  plural data source: %s\n", t.PluralName)
	} else {
		fmt.Fprintf(&b, "  plural data source: none (%s)\n", t.PluralUnavailable)
	}
	fmt.Fprintf(&b, "  primary identifier: %s\n", strings.Join(t.PrimaryIdentifier, ", "))
	if t.Suppressed != "" {
		fmt.Fprintf(&b, "  suppressed: %s\n", t.Suppressed)
	}
	if len(t.WriteOnly) > 0 {
		paths := make([]string, len(t.WriteOnly))
		for i, p := range t.WriteOnly {
			paths[i] = p.String()
		}
		fmt.Fprintf(&b, "  write-only (kept from prior state on read): %s\n", strings.Join(paths, ", "))
	}
	t.Walk(func(a *Attribute) { explainAttribute(&b, a) })
	return b.String()
}

func explainAttribute(b *strings.Builder, a *Attribute) {
	fmt.Fprintf(b, "\n%s  %s  %s\n", a.Path, TypeString(a.Type), flagString(a))
	if a.Pointer != "" {
		fmt.Fprintf(b, "  from: %s\n", a.Pointer)
	}
	if vs := validatorDescriptions(a); len(vs) > 0 {
		fmt.Fprintf(b, "  validators:\n")
		for _, v := range vs {
			fmt.Fprintf(b, "    - %s\n", v)
		}
	}
	if ms := modifierDescriptions(a); len(ms) > 0 {
		fmt.Fprintf(b, "  plan modifiers:\n")
		for _, m := range ms {
			fmt.Fprintf(b, "    - %s\n", m)
		}
	}
	for _, r := range a.Reasons {
		fmt.Fprintf(b, "  why: %s\n", r)
	}
}

// TypeString renders a type the way the awscc documentation names types:
// String, Int64, List of String, Set of Object, Map of List of String. List
// modes other than ordered and string flavours are noted in parentheses.
func TypeString(t *Type) string {
	switch t.Kind {
	case KindTimestamp:
		return "String (RFC 3339 timestamp)"
	case KindJSON:
		return "String (JSON)"
	case KindList:
		mode := ""
		if t.ListMode != ListOrdered {
			mode = " (" + t.ListMode.String() + ")"
		}
		return "List" + mode + " of " + TypeString(t.Elem)
	case KindSet, KindMap:
		return t.Kind.String() + " of " + TypeString(t.Elem)
	}
	return t.Kind.String()
}

func flagString(a *Attribute) string {
	if a.InElementType {
		return "(part of an element type: no per-attribute flags)"
	}
	var fs []string
	switch {
	case a.Required:
		fs = append(fs, "Required")
	case a.Optional && a.Computed:
		fs = append(fs, "Optional", "Computed")
	case a.Optional:
		fs = append(fs, "Optional")
	case a.Computed:
		fs = append(fs, "Computed")
	}
	if a.Sensitive {
		fs = append(fs, "Sensitive")
	}
	if a.Masked {
		fs = append(fs, "Masked")
	}
	return strings.Join(fs, ", ")
}

type describer interface {
	Description(context.Context) string
}

func describeAll[D describer](ds []D) []string {
	if len(ds) == 0 {
		return nil
	}
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Description(context.Background())
	}
	return out
}

// validatorDescriptions describes the validators the resource schema
// carries for a, built by the same functions as the schema.
func validatorDescriptions(a *Attribute) []string {
	if a.InElementType {
		return nil
	}
	switch a.Type.Kind {
	case KindString, KindTimestamp, KindJSON:
		return describeAll(stringValidators(a))
	case KindInt64:
		return describeAll(int64Validators(a))
	case KindFloat64:
		return describeAll(float64Validators(a))
	case KindBool:
		return describeAll(boolValidators(a))
	case KindObject:
		return describeAll(objectValidators(a))
	case KindList:
		return describeAll(listValidators(a))
	case KindSet:
		return describeAll(setValidators(a))
	case KindMap:
		return describeAll(mapValidators(a))
	}
	return nil
}

// modifierDescriptions describes the plan modifiers of a.
func modifierDescriptions(a *Attribute) []string {
	if a.InElementType {
		return nil
	}
	switch a.Type.Kind {
	case KindString, KindTimestamp, KindJSON:
		return describeAll(stringModifiers(a))
	case KindInt64:
		return describeAll(int64Modifiers(a))
	case KindFloat64:
		return describeAll(float64Modifiers(a))
	case KindBool:
		return describeAll(boolModifiers(a))
	case KindObject:
		return describeAll(objectModifiers(a))
	case KindList:
		return describeAll(listModifiers(a))
	case KindSet:
		return describeAll(setModifiers(a))
	case KindMap:
		return describeAll(mapModifiers(a))
	}
	return nil
}
