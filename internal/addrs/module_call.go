package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// ModuleCall is a reference to a whole module call, module.NAME: every
// instance of it, with all of their outputs.
type ModuleCall struct{ Name string }

// ModuleCallOutput is a reference to one output of a module call that has
// no instance key in the reference, module.NAME.OUTPUT. Planning uses it to
// wait for that output only; the value is still taken from the whole call.
type ModuleCallOutput struct {
	Call ModuleCall
	Name string
}

func (ModuleCall) referenceable()       {}
func (ModuleCallOutput) referenceable() {}

func (c ModuleCall) String() string       { return "module." + c.Name }
func (o ModuleCallOutput) String() string { return o.Call.String() + "." + o.Name }

// parseModuleCallRef parses module.NAME, module.NAME.OUTPUT and
// module.NAME[KEY]... (the key and what follows are left in Remaining:
// which instance is meant is for evaluation to decide).
func parseModuleCallRef(t hcl.Traversal) (*Reference, hcl.Diagnostics) {
	if len(t) < 2 {
		return nil, refError(t.SourceRange(), "Invalid reference",
			`The "module" object cannot be used directly; name a module call: module.NAME.`)
	}
	name, ok := attrName(t[1])
	if !ok {
		return nil, refError(t[1].SourceRange(), "Invalid reference",
			"A reference to a module call must use attribute syntax: module.NAME.")
	}
	call := ModuleCall{Name: name}
	rng := hcl.RangeBetween(t[0].SourceRange(), t[1].SourceRange())
	if len(t) > 2 {
		if out, ok := attrName(t[2]); ok {
			return &Reference{Subject: ModuleCallOutput{Call: call, Name: out},
				SourceRange: hcl.RangeBetween(rng, t[2].SourceRange()), Remaining: t[3:]}, nil
		}
	}
	return &Reference{Subject: call, SourceRange: rng, Remaining: t[2:]}, nil
}

// AbsInputVariable is an input variable of one module instance.
type AbsInputVariable struct {
	Module   ModuleInstance
	Variable InputVariable
}

// String returns e.g. module.m[0].var.a.
func (v AbsInputVariable) String() string {
	if v.Module.IsRoot() {
		return v.Variable.String()
	}
	return v.Module.String() + "." + v.Variable.String()
}

// AbsOutputValue is an output value of one module instance.
type AbsOutputValue struct {
	Module ModuleInstance
	Name   string
}

// String returns e.g. module.m[0].output.a.
func (o AbsOutputValue) String() string {
	if o.Module.IsRoot() {
		return "output." + o.Name
	}
	return o.Module.String() + ".output." + o.Name
}

// ParseAbsInputVariableStr parses module.m[0].var.a, as operand tables of
// saved plans write it.
func ParseAbsInputVariableStr(s string) (AbsInputVariable, error) {
	m, rest, err := parseModulePrefixedName(s, "var")
	return AbsInputVariable{Module: m, Variable: InputVariable{Name: rest}}, err
}

// ParseAbsOutputValueStr parses module.m[0].output.a.
func ParseAbsOutputValueStr(s string) (AbsOutputValue, error) {
	m, rest, err := parseModulePrefixedName(s, "output")
	return AbsOutputValue{Module: m, Name: rest}, err
}

// parseModulePrefixedName splits MODULE.KIND.NAME into the module instance
// and NAME.
func parseModulePrefixedName(s, kind string) (ModuleInstance, string, error) {
	t, ds := parseTraversal(s)
	if ds.HasErrors() {
		return nil, "", fmt.Errorf("invalid address %q: not a valid traversal", s)
	}
	m, rest, err := splitModule(t)
	if err != nil {
		return nil, "", err
	}
	if len(rest) != 2 || stepName(rest[0]) != kind {
		return nil, "", fmt.Errorf("invalid address %q: want %s.NAME", s, kind)
	}
	name, ok := attrName(rest[1])
	if !ok {
		return nil, "", fmt.Errorf("invalid address %q: want %s.NAME", s, kind)
	}
	return m, name, nil
}
