package render

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// exprDoc is one expression of the configuration document: its value
// when it has one without evaluation (no references, no function calls),
// and the references it makes. Both are absent for an expression such as
// uuid(), which Terraform writes as {}.
type exprDoc struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	References    []string        `json:"references,omitempty"`
}

func (e exprDoc) empty() bool { return e.ConstantValue == nil && e.References == nil }

// expressionJSON describes expr (nil describes nothing). The constant
// value is the expression's value without an evaluation context, when
// that is wholly known: an explicit null is written as null. References
// are listed in the order the expression makes them, repeats included,
// each followed by the shorter addresses inside it (see referenceJSON).
func expressionJSON(expr hcl.Expression) exprDoc {
	var doc exprDoc
	if expr == nil {
		return doc
	}
	if v, _ := expr.Value(nil); v != cty.NilVal {
		// Unknown values (an expression with references or function
		// calls) do not marshal, and have no constant value.
		if b, err := ctyjson.Marshal(v, v.Type()); err == nil {
			doc.ConstantValue = b
		}
	}
	for _, t := range expr.Variables() {
		ref, ds := addrs.ParseRef(t)
		if ds.HasErrors() {
			continue
		}
		if r, ok := terraformRef(ref); ok {
			doc.References = r.appendStrings(doc.References)
		}
	}
	doc.References = append(doc.References, providerFunctionCalls(expr)...)
	return doc
}

// providerFunctionCalls names the provider functions expr calls
// (provider::NAME::FUNC), in source order, repeats included: OpenTofu
// lists them after an expression's references (Terraform 1.5.7 has no
// provider functions). Built-in functions are not listed.
func providerFunctionCalls(expr hcl.Expression) []string {
	node, ok := expr.(hclsyntax.Node)
	if !ok {
		return nil
	}
	type call struct {
		name string
		at   int
	}
	var calls []call
	hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		if fc, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.HasPrefix(fc.Name, "provider::") {
			calls = append(calls, call{fc.Name, fc.NameRange.Start.Byte})
		}
		return nil
	})
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].at < calls[j].at })
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.name
	}
	return out
}

// blockExpressionsJSON describes the arguments of body read with schema:
// each attribute's expression, and each nested block's arguments, as an
// object (single and group blocks), a list of objects (list and set
// blocks) or an object by label (map blocks). Dynamic blocks and
// anything else outside schema are left out, as Terraform leaves them.
func blockExpressionsJSON(body hcl.Body, schema *configschema.Block) map[string]any {
	if body == nil || schema == nil {
		return nil
	}
	content, _, _ := body.PartialContent(hcldec.ImpliedSchema(schema.DecoderSpec()))
	if content == nil {
		return nil
	}
	out := make(map[string]any, len(content.Attributes)+len(content.Blocks))
	for name, attr := range content.Attributes {
		e := expressionJSON(attr.Expr)
		if holdsWriteOnly(schema.Attributes[name]) {
			// A write-only argument's value is never written, in a plan
			// or in state: a literal secret is not a constant to show.
			// (Terraform 1.11 writes it here.) Its references are.
			e.ConstantValue = nil
		}
		out[name] = e
	}
	for _, blk := range content.Blocks {
		nb, ok := schema.BlockTypes[blk.Type]
		if !ok {
			continue
		}
		inner := blockExpressionsJSON(blk.Body, &nb.Block)
		switch nb.Nesting {
		case configschema.NestingSingle, configschema.NestingGroup:
			out[blk.Type] = inner
		case configschema.NestingList, configschema.NestingSet:
			list, _ := out[blk.Type].([]map[string]any)
			out[blk.Type] = append(list, inner)
		case configschema.NestingMap:
			byLabel, _ := out[blk.Type].(map[string]map[string]any)
			if byLabel == nil {
				byLabel = map[string]map[string]any{}
				out[blk.Type] = byLabel
			}
			if len(blk.Labels) > 0 {
				byLabel[blk.Labels[0]] = inner
			}
		}
	}
	return out
}

// holdsWriteOnly reports whether a is write-only or has write-only
// attributes inside its nested object.
func holdsWriteOnly(a *configschema.Attribute) bool {
	if a == nil {
		return false
	}
	if a.WriteOnly {
		return true
	}
	if a.NestedType == nil {
		return false
	}
	for _, inner := range a.NestedType.Attributes {
		if holdsWriteOnly(inner) {
			return true
		}
	}
	return false
}

// tfReference is a reference as Terraform 1.5.7's reference parser reads
// it, which differs from Cairn's for module calls: module.NAME[KEY] is an
// instance, module.NAME.OUT and module.NAME[KEY].OUT an instance's
// output.
type tfReference struct {
	// subject is the referenced object's address.
	subject string
	// remaining is the attribute path after the subject.
	remaining hcl.Traversal
	// containers are the addresses of what holds the subject and that
	// Terraform lists after it: the resource of an instance with a key,
	// the call of a module instance with a key, the instance of an
	// output.
	containers []string
}

// terraformRef reads a Cairn reference as Terraform does; false when
// Terraform would not take it for a reference at all (a module instance
// followed by anything but an output name).
func terraformRef(ref *addrs.Reference) (tfReference, bool) {
	switch s := ref.Subject.(type) {
	case addrs.ModuleCall:
		return moduleCallRef(s, ref.Remaining)
	case addrs.ModuleCallOutput:
		return tfReference{subject: s.String(), remaining: ref.Remaining, containers: []string{s.Call.String()}}, true
	case addrs.ResourceInstance:
		r := tfReference{subject: s.String(), remaining: ref.Remaining}
		if s.Key != addrs.NoKey {
			r.containers = []string{s.Resource.String()}
		}
		return r, true
	}
	return tfReference{subject: ref.Subject.String(), remaining: ref.Remaining}, true
}

// moduleCallRef reads module.NAME followed by rest.
func moduleCallRef(call addrs.ModuleCall, rest hcl.Traversal) (tfReference, bool) {
	if len(rest) == 0 {
		return tfReference{subject: call.String()}, true
	}
	instance, containers := call.String(), []string(nil)
	if idx, ok := rest[0].(hcl.TraverseIndex); ok {
		key, err := addrs.ParseInstanceKey(idx.Key)
		if err != nil {
			return tfReference{}, false
		}
		instance += key.String()
		containers = []string{call.String()}
		if rest = rest[1:]; len(rest) == 0 {
			return tfReference{subject: instance, containers: containers}, true
		}
	}
	out, ok := rest[0].(hcl.TraverseAttr)
	if !ok {
		return tfReference{}, false
	}
	return tfReference{subject: instance + "." + out.Name, remaining: rest[1:], containers: []string{instance}}, true
}

// appendStrings appends the reference as the configuration document lists
// it: the subject with its whole remaining path, then with one step
// fewer each time down to the subject alone, then its containers.
func (r tfReference) appendStrings(out []string) []string {
	for n := len(r.remaining); n > 0; n-- {
		out = append(out, r.subject+traversalText(r.remaining[:n]))
	}
	out = append(out, r.subject)
	return append(out, r.containers...)
}

// traversalText writes attribute and index steps compactly, as
// Terraform's document does: .name, ["key"], [0]; a number up to ten
// significant digits.
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteByte('[')
			switch {
			case s.Key.IsNull() || !s.Key.IsKnown():
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "%q", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				b.WriteString(s.Key.AsBigFloat().Text('g', 10))
			}
			b.WriteByte(']')
		}
	}
	return b.String()
}
