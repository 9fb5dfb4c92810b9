package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Referenceable is anything an expression can refer to.
type Referenceable interface {
	referenceable()
	String() string
}

// InputVariable is a reference to var.NAME.
type InputVariable struct{ Name string }

// LocalValue is a reference to local.NAME.
type LocalValue struct{ Name string }

// CountAttr is a reference to count.index.
type CountAttr struct{ Name string }

// ForEachAttr is a reference to each.key or each.value.
type ForEachAttr struct{ Name string }

// PathAttr is a reference to path.module, path.root or path.cwd.
type PathAttr struct{ Name string }

// TerraformAttr is a reference to terraform.workspace.
type TerraformAttr struct{ Name string }

// Self is a reference to self inside a provisioner or postcondition.
type Self struct{}

func (InputVariable) referenceable()    {}
func (LocalValue) referenceable()       {}
func (CountAttr) referenceable()        {}
func (ForEachAttr) referenceable()      {}
func (PathAttr) referenceable()         {}
func (TerraformAttr) referenceable()    {}
func (Self) referenceable()             {}
func (Resource) referenceable()         {}
func (ResourceInstance) referenceable() {}

func (v InputVariable) String() string { return "var." + v.Name }
func (v LocalValue) String() string    { return "local." + v.Name }
func (v CountAttr) String() string     { return "count." + v.Name }
func (v ForEachAttr) String() string   { return "each." + v.Name }
func (v PathAttr) String() string      { return "path." + v.Name }
func (v TerraformAttr) String() string { return "terraform." + v.Name }
func (Self) String() string            { return "self" }

// Reference is one reference found in an expression: what it refers to, where
// it was written, and the rest of the traversal after the referenced object
// (an attribute path into it).
type Reference struct {
	Subject     Referenceable
	SourceRange hcl.Range
	Remaining   hcl.Traversal
}

// ParseRef interprets a traversal taken from an expression as a reference.
// The result's Subject is one of the Referenceable types of this package.
// Root names that are not references (a typo, an unsupported object) return
// an error diagnostic located at the traversal.
func ParseRef(traversal hcl.Traversal) (*Reference, hcl.Diagnostics) {
	root := traversal.RootName()
	rng := traversal.SourceRange()
	switch root {
	case "var":
		return parseSimpleRef(traversal, "an input variable", func(n string) Referenceable { return InputVariable{n} })
	case "local":
		return parseSimpleRef(traversal, "a local value", func(n string) Referenceable { return LocalValue{n} })
	case "count":
		return parseSimpleRef(traversal, "count", func(n string) Referenceable { return CountAttr{n} })
	case "each":
		return parseSimpleRef(traversal, "each", func(n string) Referenceable { return ForEachAttr{n} })
	case "path":
		return parseSimpleRef(traversal, "path", func(n string) Referenceable { return PathAttr{n} })
	case "terraform":
		return parseSimpleRef(traversal, "terraform", func(n string) Referenceable { return TerraformAttr{n} })
	case "self":
		// Like every other reference, the range is the referenced object's
		// (the self keyword), not the attribute path that follows it.
		return &Reference{Subject: Self{}, SourceRange: traversal[0].SourceRange(), Remaining: traversal[1:]}, nil
	case "data":
		return parseModeRef(traversal, DataResourceMode,
			`The "data" object must be followed by two attribute names: the data source type and the resource name.`)
	case "ephemeral":
		return parseModeRef(traversal, EphemeralResourceMode,
			`The "ephemeral" object must be followed by two attribute names: the ephemeral resource type and the resource name.`)
	case "module":
		return parseModuleCallRef(traversal)
	case "resource":
		// resource.TYPE.NAME is another way of writing TYPE.NAME, kept by
		// Terraform so that a resource type can be named even if a later
		// language edition reserves its name.
		return parseManagedRef(traversal)
	case "template", "lazy", "arg", "null":
		return nil, refError(rng, "Unsupported reference",
			fmt.Sprintf("References to %q are not supported by Cairn yet.", root))
	}
	if len(traversal) < 2 {
		return nil, refError(rng, "Invalid reference",
			fmt.Sprintf("A reference to a resource type must be followed by at least one attribute access, specifying the resource name. %q is not a resource reference or any other kind of object.", root))
	}
	name, ok := attrName(traversal[1])
	if !ok {
		return nil, refError(rng, "Invalid reference",
			"A reference to a resource type must be followed by an attribute access naming the resource.")
	}
	return resourceRef(Resource{Mode: ManagedResourceMode, Type: root, Name: name}, traversal, 2), nil
}

// parseModeRef parses data.TYPE.NAME or ephemeral.TYPE.NAME (optionally
// followed by an instance key and attributes); invalid is the detail
// when the two names are missing.
func parseModeRef(t hcl.Traversal, mode ResourceMode, invalid string) (*Reference, hcl.Diagnostics) {
	if len(t) < 3 {
		return nil, refError(t.SourceRange(), "Invalid reference", invalid)
	}
	typ, ok1 := attrName(t[1])
	name, ok2 := attrName(t[2])
	if !ok1 || !ok2 {
		return nil, refError(t.SourceRange(), "Invalid reference", invalid)
	}
	return resourceRef(Resource{Mode: mode, Type: typ, Name: name}, t, 3), nil
}

// parseManagedRef parses resource.TYPE.NAME (optionally followed by an
// instance key and attributes) as the managed resource TYPE.NAME; the
// reference's range starts at "resource", as Terraform's does.
func parseManagedRef(t hcl.Traversal) (*Reference, hcl.Diagnostics) {
	invalid := refError(t.SourceRange(), "Invalid reference",
		`The "resource" object must be followed by two attribute names: the resource type and the resource name.`)
	if len(t) < 3 {
		return nil, invalid
	}
	typ, ok1 := attrName(t[1])
	name, ok2 := attrName(t[2])
	if !ok1 || !ok2 {
		return nil, invalid
	}
	return resourceRef(Resource{Mode: ManagedResourceMode, Type: typ, Name: name}, t, 3), nil
}

func parseSimpleRef(t hcl.Traversal, what string, mk func(string) Referenceable) (*Reference, hcl.Diagnostics) {
	rng := t.SourceRange()
	if len(t) < 2 {
		return nil, refError(rng, "Invalid reference",
			fmt.Sprintf("The %q object cannot be used directly; access one of its attributes, e.g. %s.NAME.", t.RootName(), t.RootName()))
	}
	name, ok := attrName(t[1])
	if !ok {
		return nil, refError(t[1].SourceRange(), "Invalid reference",
			fmt.Sprintf("A reference to %s must use attribute syntax: %s.NAME.", what, t.RootName()))
	}
	return &Reference{Subject: mk(name), SourceRange: hcl.RangeBetween(t[0].SourceRange(), t[1].SourceRange()), Remaining: t[2:]}, nil
}

// resourceRef builds a reference to a resource, or to one of its instances
// when the next step is an index with a valid key.
func resourceRef(r Resource, t hcl.Traversal, n int) *Reference {
	rng := hcl.RangeBetween(t[0].SourceRange(), t[n-1].SourceRange())
	if len(t) > n {
		if idx, ok := t[n].(hcl.TraverseIndex); ok {
			if key, err := ParseInstanceKey(idx.Key); err == nil {
				return &Reference{
					Subject:     r.Instance(key),
					SourceRange: hcl.RangeBetween(rng, idx.SourceRange()),
					Remaining:   t[n+1:],
				}
			}
		}
	}
	return &Reference{Subject: r, SourceRange: rng, Remaining: t[n:]}
}

func attrName(s hcl.Traverser) (string, bool) {
	a, ok := s.(hcl.TraverseAttr)
	return a.Name, ok
}

func refError(rng hcl.Range, summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}}
}
