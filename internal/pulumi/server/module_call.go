package server

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/pulumi/schema"
)

// ModuleCall is the module call a typed module package's component
// stands for: what Construct of NAME:index:Module runs, as a module block
// with these arguments would.
type ModuleCall struct {
	// Source and Version are the module's, as the package was made with
	// them.
	Source, Version string
	// Dir is the module's directory, absolute, for a local source.
	Dir string
	// Variables are the component's inputs by variable name, converted
	// to the variables' types: secrets come marked sensitive, values not
	// yet known (a preview) unknown, and an absent optional input null.
	Variables map[string]cty.Value

	module *ModulePackage
}

// TypedModuleCall reads a Construct request for the component of the
// typed module package this server serves. ok is false when the server
// serves no module package or typ is not its component; inputs that do
// not fit the module's variables are an error naming the property.
func (s *Server) TypedModuleCall(typ string, in *structpb.Struct) (call *ModuleCall, ok bool, err error) {
	m := s.modulePackage()
	if m == nil || typ != s.info.Name+":"+schema.ModuleType {
		return nil, false, nil
	}
	block := schema.ModuleInputs(m.Variables)
	v, err := inputs(block, in)
	if err != nil {
		return nil, true, failure("Invalid module inputs", err.Error())
	}
	vars := map[string]cty.Value{}
	for name := range block.Attributes {
		vars[name] = v.GetAttr(name)
	}
	return &ModuleCall{Source: m.Source, Version: m.Version, Dir: m.Dir, Variables: vars, module: m}, true, nil
}

// Outputs encodes the module's output values (by output name; missing
// ones are left out) as the component's outputs: lowerCamelCase keys,
// sensitive outputs and sensitive-marked values as secrets, unknowns as
// computed.
func (c *ModuleCall) Outputs(values map[string]cty.Value) (*structpb.Struct, error) {
	block := schema.ModuleOutputs(c.module.Outputs)
	attrs := map[string]cty.Value{}
	for name := range block.Attributes {
		attrs[name] = cty.NullVal(cty.DynamicPseudoType)
		if v, ok := values[name]; ok {
			attrs[name] = v
		}
	}
	for name := range values {
		if _, ok := block.Attributes[name]; !ok {
			return nil, fmt.Errorf("module %s has no output %q", c.Source, name)
		}
	}
	return encode(block, cty.ObjectVal(attrs))
}
