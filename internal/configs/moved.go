package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// Moved is a moved block: the object Terraform knew at From is now the
// one at To. Both endpoints are relative to the module declaring the
// block, so a moved block in a child module applies in every instance of
// it. The refactoring package turns moved blocks into state moves.
type Moved struct {
	From, To           addrs.MoveEndpoint
	FromRange, ToRange hcl.Range
	DeclRange          hcl.Range
}

var movedBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "from", Required: true},
		{Name: "to", Required: true},
	},
}

// decodeMovedBlock decodes one moved block and checks what can be checked
// without the rest of the configuration: both endpoints of one kind, a
// move that goes somewhere, and a resource keeping its type. It returns
// nil when the block is unusable.
func decodeMovedBlock(block *hcl.Block) (*Moved, hcl.Diagnostics) {
	content, diags := block.Body.Content(movedBlockSchema)
	m := &Moved{DeclRange: block.DefRange}
	if attr, ok := content.Attributes["from"]; ok {
		var ds hcl.Diagnostics
		m.From, ds = decodeMoveEndpoint(attr)
		m.FromRange = attr.Expr.Range()
		diags = append(diags, ds...)
	}
	if attr, ok := content.Attributes["to"]; ok {
		var ds hcl.Diagnostics
		m.To, ds = decodeMoveEndpoint(attr)
		m.ToRange = attr.Expr.Range()
		diags = append(diags, ds...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	unifyMoveEndpoints(m)
	if ds := checkMoveEndpoints(m); ds.HasErrors() {
		return nil, append(diags, ds...)
	}
	return m, diags
}

// decodeMoveEndpoint reads from or to: a static address, not an
// expression to evaluate.
func decodeMoveEndpoint(attr *hcl.Attribute) (addrs.MoveEndpoint, hcl.Diagnostics) {
	t, diags := hcl.AbsTraversalForExpr(attr.Expr)
	if diags.HasErrors() {
		return addrs.MoveEndpoint{}, diags
	}
	return addrs.ParseMoveEndpoint(t, attr.Expr.Range())
}

// unifyMoveEndpoints reads a whole resource or module call moved to (or
// from) a single instance as its unkeyed instance, as Terraform does, so
// both sides name the same kind of thing.
func unifyMoveEndpoints(m *Moved) {
	if m.From.IsModule() != m.To.IsModule() || m.From.Instance == m.To.Instance {
		return
	}
	m.From, m.To = m.From.AsInstance(), m.To.AsInstance()
}

// checkMoveEndpoints reports a move between a module and a resource, a
// move to the same address and a resource changing mode, with Terraform's
// messages (its type mismatch has no source location). A move to another
// resource type is Terraform 1.8's cross-type move: planning asks the
// target provider (MoveResourceState) and reports there a provider that
// cannot.
func checkMoveEndpoints(m *Moved) hcl.Diagnostics {
	switch {
	case m.From.IsModule() != m.To.IsModule():
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  `Invalid "moved" addresses`,
			Detail:   `The "from" and "to" addresses must either both refer to resources or both refer to modules.`,
			Subject:  m.DeclRange.Ptr(),
		}}
	case m.From.Equal(m.To):
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Redundant move statement",
			Detail: fmt.Sprintf("This statement declares a move from %s to the same address, which is the same "+
				"as not declaring this move at all.", m.From),
			Subject: m.DeclRange.Ptr(),
		}}
	case !m.From.IsModule() && m.From.Resource.Mode != m.To.Resource.Mode:
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Resource type mismatch",
			Detail: fmt.Sprintf("This statement declares a move from %s to %s, which is a resource of a different type.",
				m.From, m.To),
		}}
	}
	return nil
}
