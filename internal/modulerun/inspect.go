package modulerun

import (
	"fmt"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configs"
)

// Interface is what a module takes and gives: its variables and
// outputs, in name order.
type Interface struct {
	Variables []Variable
	Outputs   []OutputDecl
}

// Variable is one variable of a module.
type Variable struct {
	Name        string
	Description string
	// Type is the type constraint; cty.DynamicPseudoType for "any" or
	// none.
	Type cty.Type
	// Default is cty.NilVal when there is none; the variable is then
	// required.
	Default   cty.Value
	Required  bool
	Sensitive bool
}

// OutputDecl is one output as the module declares it (Output is one
// as a run computes it). Outputs declare no type.
type OutputDecl struct {
	Name        string
	Description string
	Sensitive   bool
}

// Inspect loads the module in dir (its *.tf and *.tf.json files, and the
// local modules it calls, as the engine loads it) and returns its
// interface. A module that does not load is an error carrying the
// configuration's diagnostics; nothing is evaluated, so no value of the
// module is read beyond its variables' defaults.
func Inspect(dir string) (*Interface, error) {
	m, ds := configs.LoadDir(dir)
	if ds.HasErrors() {
		return nil, fmt.Errorf("loading module %s: %w", dir, ds.Err())
	}
	return interfaceOf(m), nil
}

func interfaceOf(m *configs.Module) *Interface {
	out := &Interface{}
	for _, name := range slices.Sorted(maps.Keys(m.Variables)) {
		v := m.Variables[name]
		ty := v.Type
		if ty == cty.NilType {
			ty = cty.DynamicPseudoType
		}
		out.Variables = append(out.Variables, Variable{
			Name: v.Name, Description: v.Description, Type: ty, Default: v.Default,
			// A variable without a default is required; one that is
			// nullable with a null default is optional.
			Required:  v.Default == cty.NilVal,
			Sensitive: v.Sensitive,
		})
	}
	for _, name := range slices.Sorted(maps.Keys(m.Outputs)) {
		o := m.Outputs[name]
		out.Outputs = append(out.Outputs, OutputDecl{Name: o.Name, Description: o.Description, Sensitive: o.Sensitive})
	}
	return out
}
