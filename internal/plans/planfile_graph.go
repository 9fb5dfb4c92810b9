package plans

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/zclconf/go-cty/cty"
)

// graphV1 is the operation graph in a plan file: nodes refer to their
// operands by index, and the operands are stored once, as addresses.
type graphV1 struct {
	Nodes     []nodeV1 `json:"nodes"`
	Providers []string `json:"providers,omitempty"`
	Locals    []string `json:"locals,omitempty"`
	Resources []string `json:"resources,omitempty"`
	Variables []string `json:"variables,omitempty"`
	Outputs   []string `json:"module_outputs,omitempty"`
}

type nodeV1 struct {
	Op      Op     `json:"op"`
	Ref     int    `json:"ref,omitempty"`
	Deposed string `json:"deposed,omitempty"`
	Deps    []int  `json:"deps,omitempty"`
}

// expansionV1 is one resource's recorded expansion. Each holds each.value
// by key (values may be unknown, hence valueV1).
type expansionV1 struct {
	Resource string             `json:"resource"`
	Mode     instances.Mode     `json:"mode"`
	Count    int                `json:"count,omitempty"`
	Each     map[string]valueV1 `json:"each,omitempty"`
}

func encodeGraph(g *Graph) graphV1 {
	out := graphV1{Nodes: make([]nodeV1, len(g.Nodes))}
	for i, n := range g.Nodes {
		out.Nodes[i] = nodeV1{Op: n.Op, Ref: n.Ref, Deposed: string(n.Deposed), Deps: n.Deps}
	}
	for _, a := range g.Providers {
		out.Providers = append(out.Providers, a.String())
	}
	for _, a := range g.Locals {
		out.Locals = append(out.Locals, a.String())
	}
	for _, a := range g.Resources {
		out.Resources = append(out.Resources, a.String())
	}
	for _, a := range g.Variables {
		out.Variables = append(out.Variables, a.String())
	}
	for _, a := range g.ModuleOutputs {
		out.Outputs = append(out.Outputs, a.String())
	}
	return out
}

// operandCounts are the lengths of the plan's tables nodes index.
type operandCounts struct {
	changes, outputs, checks, modules int
}

func decodeGraph(doc graphV1, counts operandCounts) (*Graph, error) {
	g := &Graph{Nodes: make([]Node, len(doc.Nodes))}
	for _, s := range doc.Providers {
		a, ds := addrs.ParseAbsProviderConfig(s)
		if ds.HasErrors() {
			return nil, fmt.Errorf("invalid provider %q", s)
		}
		g.Providers = append(g.Providers, a)
	}
	for _, s := range doc.Locals {
		a, err := addrs.ParseAbsLocalValueStr(s)
		if err != nil {
			return nil, err
		}
		g.Locals = append(g.Locals, a)
	}
	for _, s := range doc.Resources {
		a, ds := addrs.ParseAbsResourceStr(s)
		if ds.HasErrors() {
			return nil, fmt.Errorf("invalid resource %q", s)
		}
		g.Resources = append(g.Resources, a)
	}
	for _, s := range doc.Variables {
		// A root variable is an operand too: of OpValidateVariable.
		a, err := addrs.ParseAbsInputVariableStr(s)
		if err != nil {
			return nil, fmt.Errorf("invalid variable %q", s)
		}
		g.Variables = append(g.Variables, a)
	}
	for _, s := range doc.Outputs {
		a, err := addrs.ParseAbsOutputValueStr(s)
		if err != nil || a.Module.IsRoot() {
			return nil, fmt.Errorf("invalid module output %q", s)
		}
		g.ModuleOutputs = append(g.ModuleOutputs, a)
	}
	for i, en := range doc.Nodes {
		n, err := decodeNode(en, g, len(doc.Nodes), counts)
		if err != nil {
			return nil, fmt.Errorf("graph node %d: %w", i, err)
		}
		g.Nodes[i] = n
	}
	return g, nil
}

// decodeNode checks a node's op and that every index it holds is in range,
// so apply can index without checking.
func decodeNode(en nodeV1, g *Graph, nodes int, counts operandCounts) (Node, error) {
	dk, err := addrs.ParseDeposedKey(en.Deposed)
	if err != nil {
		return Node{}, err
	}
	n := Node{Op: en.Op, Ref: en.Ref, Deposed: dk, Deps: en.Deps}
	for _, d := range en.Deps {
		if d < 0 || d >= nodes {
			return n, fmt.Errorf("dependency %d out of range", d)
		}
	}
	var limit int
	switch {
	case n.Op.ChangeOp():
		limit = counts.changes
	case n.Op == OpEvalOutput || n.Op == OpRemoveOutput:
		limit = counts.outputs
	case n.Op == OpCheckAssertions:
		limit = counts.checks
	case n.Op == OpConfigureProvider:
		limit = len(g.Providers)
	case n.Op == OpEvalLocal:
		limit = len(g.Locals)
	case n.Op == OpEvalVariable || n.Op == OpValidateVariable:
		limit = len(g.Variables)
	case n.Op == OpEvalModuleOutput:
		limit = len(g.ModuleOutputs)
	case n.Op == OpExpandModule:
		limit = counts.modules
	case n.Op == OpExpand || n.Op == OpJoinResource || n.Op == OpJoinUpdated || n.Op == OpJoinDestroyed || n.Op == OpOpenEphemeral:
		limit = len(g.Resources)
	default:
		return n, fmt.Errorf("unknown operation %q", byte(n.Op))
	}
	if n.Ref < 0 || n.Ref >= limit {
		return n, fmt.Errorf("%s operand %d out of range", n.Op, n.Ref)
	}
	if (n.Op == OpDeposeAndCreate || n.Op == OpDeleteDeposed) != (dk != addrs.NotDeposed) {
		return n, fmt.Errorf("%s with deposed key %q", n.Op, dk)
	}
	return n, nil
}

func encodeExpansions(es []*ResourceExpansion) ([]expansionV1, error) {
	out := make([]expansionV1, 0, len(es))
	for _, e := range es {
		ev, err := encodeExpansion(e.Addr.String(), e.Expansion)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

// encodeModuleExpansions records each module call's expansion under the
// address of the call with no key (module.a[0].module.b for call b in
// module.a[0]).
func encodeModuleExpansions(es []*ModuleExpansion) ([]expansionV1, error) {
	out := make([]expansionV1, 0, len(es))
	for _, e := range es {
		ev, err := encodeExpansion(e.Parent.Child(e.Call, addrs.NoKey).String(), e.Expansion)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func encodeExpansion(label string, e *instances.Expansion) (expansionV1, error) {
	ev := expansionV1{Resource: label, Mode: e.Mode(), Count: e.Count()}
	if e.Mode() == instances.ForEach {
		ev.Each = make(map[string]valueV1, e.Len())
		for _, k := range e.EachKeys() {
			v, _ := e.EachValue(k)
			enc, err := encodeValue(v)
			if err != nil {
				return ev, fmt.Errorf("expansion of %s, key %q: %w", label, k, err)
			}
			ev.Each[k] = enc
		}
	}
	return ev, nil
}

func decodeExpansions(evs []expansionV1, dc *decodeCache) ([]*ResourceExpansion, error) {
	out := make([]*ResourceExpansion, 0, len(evs))
	for _, ev := range evs {
		addr, ds := addrs.ParseAbsResourceStr(ev.Resource)
		if ds.HasErrors() {
			return nil, fmt.Errorf("invalid resource %q in expansions", ev.Resource)
		}
		exp, err := decodeExpansion(ev, dc)
		if err != nil {
			return nil, err
		}
		out = append(out, &ResourceExpansion{Addr: addr, Expansion: exp})
	}
	return out, nil
}

func decodeModuleExpansions(evs []expansionV1, dc *decodeCache) ([]*ModuleExpansion, error) {
	out := make([]*ModuleExpansion, 0, len(evs))
	for _, ev := range evs {
		m, err := addrs.ParseModuleInstanceStr(ev.Resource)
		if err != nil || len(m) == 0 || m[len(m)-1].Key != addrs.NoKey {
			return nil, fmt.Errorf("invalid module call %q in module expansions", ev.Resource)
		}
		exp, err := decodeExpansion(ev, dc)
		if err != nil {
			return nil, err
		}
		out = append(out, &ModuleExpansion{Parent: m[:len(m)-1], Call: m[len(m)-1].Name, Expansion: exp})
	}
	return out, nil
}

func decodeExpansion(ev expansionV1, dc *decodeCache) (*instances.Expansion, error) {
	switch ev.Mode {
	case instances.Single:
		return instances.SingleExpansion(), nil
	case instances.Disabled:
		return instances.DisabledExpansion(), nil
	case instances.Count:
		if ev.Count < 0 {
			return nil, fmt.Errorf("expansion of %s: negative count", ev.Resource)
		}
		return instances.CountExpansion(ev.Count), nil
	case instances.ForEach:
		each := make(map[string]cty.Value, len(ev.Each))
		for k, enc := range ev.Each {
			v, err := enc.decode(dc)
			if err != nil {
				return nil, fmt.Errorf("expansion of %s, key %q: %w", ev.Resource, k, err)
			}
			each[k] = v
		}
		return instances.ForEachExpansion(each), nil
	}
	return nil, fmt.Errorf("expansion of %s: invalid mode %q", ev.Resource, byte(ev.Mode))
}
