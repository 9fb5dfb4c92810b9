package planning

import (
	"encoding/json"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/hashicorp/hcl/v2"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// relevantAttributes finds the resource attributes the plan's changes
// refer to, as Terraform's relevant_attributes: the references in the
// configuration of every changed resource instance and root output,
// followed through locals and through each referenced resource's own
// configuration (only the referenced attribute's expression when the
// reference names an attribute). A refresh-only plan has output changes
// only, so only they contribute.
func (p *planner) relevantAttributes() []plans.ResourceAttr {
	cfg := p.opts.Config
	w := &relevantWalk{p: p, cfg: cfg, visited: map[string]bool{}, found: map[string]plans.ResourceAttr{}}
	for _, c := range p.changes {
		// The walk follows references within the root module; a change
		// inside a child module contributes nothing yet.
		if c.Action == plans.NoOp || c.DeposedKey != addrs.NotDeposed || !c.Addr.Module.IsRoot() {
			continue
		}
		if r := cfg.ResourceByAddr(c.Addr.Resource.Resource); r != nil {
			w.follow(w.resourceRefs(r, nil))
		}
	}
	for _, o := range p.outputs {
		if oc := cfg.Outputs[o.Name]; oc != nil && o.Action != plans.NoOp {
			refs, _ := lang.ReferencesInExpr(oc.Expr)
			w.follow(refs)
		}
	}
	out := make([]plans.ResourceAttr, 0, len(w.found))
	keys := make([]string, 0, len(w.found))
	for k := range w.found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, w.found[k])
	}
	return out
}

// relevantWalk follows references until every object reached was
// visited once, recording the resource attributes met on the way.
type relevantWalk struct {
	p       *planner
	cfg     *configs.Module
	visited map[string]bool
	found   map[string]plans.ResourceAttr
}

func (w *relevantWalk) follow(refs []*addrs.Reference) {
	for len(refs) > 0 {
		ref := refs[0]
		refs = refs[1:]
		key := refKey(ref)
		if w.visited[key] {
			continue
		}
		w.visited[key] = true
		switch s := ref.Subject.(type) {
		case addrs.LocalValue:
			if l := w.cfg.Locals[s.Name]; l != nil {
				more, _ := lang.ReferencesInExpr(l.Expr)
				refs = append(refs, more...)
			}
		case addrs.Resource:
			refs = append(refs, w.reachResource(s.Instance(addrs.NoKey), ref.Remaining)...)
		case addrs.ResourceInstance:
			refs = append(refs, w.reachResource(s, ref.Remaining)...)
		}
	}
}

// reachResource records an attribute of a resource instance and returns
// the references the configuration of that attribute makes.
func (w *relevantWalk) reachResource(ri addrs.ResourceInstance, remain hcl.Traversal) []*addrs.Reference {
	addr := ri.Absolute(addrs.RootModuleInstance).String()
	path := jsonTraversalPath(remain)
	enc, _ := json.Marshal(path)
	w.found[addr+" "+string(enc)] = plans.ResourceAttr{Resource: addr, Attribute: path}
	r := w.cfg.ResourceByAddr(ri.Resource)
	if r == nil {
		return nil
	}
	return w.resourceRefs(r, remain)
}

// resourceRefs returns the references of a resource's configuration: of
// the attribute remain names first when it names a configured attribute
// (none when it is unset), of the whole body otherwise.
func (w *relevantWalk) resourceRefs(r *configs.Resource, remain hcl.Traversal) []*addrs.Reference {
	schema, _ := w.p.schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type)
	if schema == nil || r.Config == nil {
		return nil
	}
	if len(remain) > 0 {
		if step, ok := remain[0].(hcl.TraverseAttr); ok && schema.Attributes[step.Name] != nil {
			content, _, _ := r.Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: step.Name}}})
			if content == nil || content.Attributes[step.Name] == nil {
				return nil
			}
			refs, _ := lang.ReferencesInExpr(content.Attributes[step.Name].Expr)
			return refs
		}
	}
	refs, _ := lang.ReferencesInBlock(r.Config, schema)
	return refs
}

// jsonTraversalPath encodes the steps after a resource reference as
// Terraform's JSON path: attribute names as strings, index keys as their
// JSON. It stops at a step that is neither.
func jsonTraversalPath(t hcl.Traversal) []json.RawMessage {
	out := []json.RawMessage{}
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b, _ := json.Marshal(s.Name)
			out = append(out, b)
		case hcl.TraverseIndex:
			b, err := ctyjson.Marshal(s.Key, s.Key.Type())
			if err != nil {
				return out
			}
			out = append(out, b)
		default:
			return out
		}
	}
	return out
}

// refKey identifies a reference by what it names, path included.
func refKey(ref *addrs.Reference) string {
	enc, _ := json.Marshal(jsonTraversalPath(ref.Remaining))
	return ref.Subject.String() + " " + string(enc)
}
