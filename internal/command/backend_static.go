package command

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// configuredBackend is cfg's backend block (nil when there is none: the
// local backend at Terraform's default paths) with its arguments that
// refer to variables and locals evaluated, as OpenTofu 1.8's early
// evaluation allows: from -var, -var-file, the variable files, TF_VAR_
// and the locals that depend only on them. Anything known only while
// planning (a resource, a data source) is refused.
func (m *Meta) configuredBackend(cfg *configs.Module) (*configs.Backend, diags.Diagnostics) {
	if cfg == nil || cfg.Backend == nil {
		return nil, nil
	}
	body, ok := cfg.Backend.Config.(*hclsyntax.Body)
	if !ok || !bodyRefers(body) {
		return cfg.Backend, nil
	}
	ctx, ds := m.encryptionEvalContext(cfg)
	resolved, rds := staticBody(body, ctx, cfg.Backend.Type)
	ds = ds.Append(rds)
	if ds.HasErrors() {
		return nil, ds
	}
	blk := *cfg.Backend
	blk.Config = resolved
	return &blk, ds
}

// bodyRefers reports whether any argument of body, or of a block in it,
// refers to anything.
func bodyRefers(body *hclsyntax.Body) bool {
	for _, a := range body.Attributes {
		if len(a.Expr.Variables()) > 0 {
			return true
		}
	}
	for _, b := range body.Blocks {
		if bodyRefers(b.Body) {
			return true
		}
	}
	return false
}

// staticBody copies body with each argument that refers to something
// replaced by its value in ctx, which must be known and not sensitive or
// ephemeral: the backend's settings are recorded in plain text.
func staticBody(body *hclsyntax.Body, ctx *hcl.EvalContext, typ string) (*hclsyntax.Body, diags.Diagnostics) {
	var ds diags.Diagnostics
	out := *body
	out.Attributes = make(hclsyntax.Attributes, len(body.Attributes))
	for name, a := range body.Attributes {
		out.Attributes[name] = a
		if len(a.Expr.Variables()) == 0 {
			continue
		}
		if d := nonStaticRef(a.Expr, "backend."+typ); d != nil {
			ds = ds.Append(*d)
			continue
		}
		v, hd := a.Expr.Value(ctx)
		ds = ds.Append(hd)
		if hd.HasErrors() {
			continue
		}
		switch {
		case !v.IsWhollyKnown() || marks.Contains(v) && !v.HasMark(marks.Sensitive) && !marks.IsEphemeral(v):
			ds = ds.Append(diags.At(a.Expr.Range(), "Unable to compute static value",
				fmt.Sprintf("The backend's %q argument depends on a variable without a value or a local that is known only while planning. Give the variable a value (with -var, -var-file or TF_VAR_), or write the value in the block.", name)))
			continue
		case marks.IsEphemeral(v):
			ds = ds.Append(diags.At(a.Expr.Range(), "Ephemeral value not allowed",
				"Ephemeral values, or values derived from ephemeral values, cannot be used as backend configuration."))
			continue
		case marks.Contains(v):
			ds = ds.Append(diags.At(a.Expr.Range(), "Sensitive value not allowed",
				"Sensitive values, or values derived from sensitive values, cannot be used as backend configuration."))
			continue
		}
		na := *a
		na.Expr = &hclsyntax.LiteralValueExpr{Val: v, SrcRange: a.Expr.Range()}
		out.Attributes[name] = &na
	}
	out.Blocks = make(hclsyntax.Blocks, len(body.Blocks))
	for i, b := range body.Blocks {
		nb := *b
		inner, bds := staticBody(b.Body, ctx, typ)
		ds = ds.Append(bds)
		nb.Body = inner
		out.Blocks[i] = &nb
	}
	return &out, ds
}

// nonStaticRef reports a reference to something other than a variable,
// a local or path/terraform.workspace, with OpenTofu's wording; requiredBy
// names what needs the value ("backend.s3", "module.net.source").
func nonStaticRef(expr hcl.Expression, requiredBy string) *diags.Diagnostic {
	for _, t := range expr.Variables() {
		summary := "Dynamic value in static context"
		switch t.RootName() {
		case "var", "local", "path", "terraform":
			continue
		case "module":
			summary = "Module output not supported in static context"
		}
		d := diags.At(t.SourceRange(), summary,
			fmt.Sprintf("Unable to use %s in static context, which is required by %s", traversalName(t), requiredBy))
		return &d
	}
	return nil
}

// traversalName is the object a traversal refers to, as OpenTofu names
// it: aws_s3_bucket.b, data.x.y, module.m.out (an output of a call).
func traversalName(t hcl.Traversal) string {
	name := t.RootName()
	steps := 1
	if name == "data" || name == "module" {
		steps = 2
	}
	for _, step := range t[1:] {
		attr, ok := step.(hcl.TraverseAttr)
		if !ok || steps == 0 {
			break
		}
		name += "." + attr.Name
		steps--
	}
	return name
}
