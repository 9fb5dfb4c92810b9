package configs

import (
	"bytes"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// FunctionCall is a call of a namespaced function (provider::NAME::FUNC
// or core::FUNC) somewhere in a module's native-syntax files, found at
// load time so that calls of functions the module may not use are
// reported before anything is evaluated, at the call.
type FunctionCall struct {
	// Name is the function's full name, "provider::terraform::encode_expr".
	Name string
	// Range is the whole call; NameRange the name alone.
	Range, NameRange hcl.Range
}

// namespacedCalls returns the namespaced function calls in a parsed file.
// A file with no "::" has none, which keeps the walk off almost every
// file.
func namespacedCalls(src []byte, body hcl.Body) []FunctionCall {
	syn, ok := body.(*hclsyntax.Body)
	if !ok || !bytes.Contains(src, []byte("::")) {
		return nil
	}
	var calls []FunctionCall
	hclsyntax.VisitAll(syn, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok && strings.Contains(call.Name, "::") {
			calls = append(calls, FunctionCall{Name: call.Name, Range: call.Range(), NameRange: call.NameRange})
		}
		return nil
	})
	return calls
}

// sortCalls orders calls by file and position, so diagnostics come in
// source order.
func sortCalls(calls []FunctionCall) {
	sort.SliceStable(calls, func(i, j int) bool {
		a, b := calls[i].Range, calls[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}
