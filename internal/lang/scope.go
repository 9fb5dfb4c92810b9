package lang

import (
	"fmt"
	"os"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/typeconv"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Scope is everything one expression evaluation can see.
type Scope struct {
	Data Data
	// Funcs is the function table, shared by every scope of a run.
	Funcs map[string]function.Function
	// ModuleDir is path.module; RootDir is path.root (ModuleDir when
	// empty); CWD is path.cwd.
	ModuleDir string
	RootDir   string
	CWD       string
	// Workspace is terraform.workspace.
	Workspace  string
	Repetition Repetition
	// Self is the value self refers to, or cty.NilVal where self is not
	// allowed.
	Self cty.Value
	// Check, when set, checks each expression's references before it is
	// evaluated (validation checks them against the providers' schemas).
	// An expression whose references have errors is not evaluated: as in
	// Terraform, evaluating it would only repeat them less precisely.
	Check func(refs []*addrs.Reference) diags.Diagnostics
	// Secrets are the secrets the run knows of (nil: none): what this
	// scope says to people about values (a condition's message, the
	// values a diagnostic describes) shows none of them, even through a
	// copy that lost its mark.
	Secrets *marks.Known
}

// EvalExpr evaluates expr and converts the result to want
// (cty.DynamicPseudoType for no conversion).
func (s *Scope) EvalExpr(expr hcl.Expression, want cty.Type) (cty.Value, diags.Diagnostics) {
	refs, ds := ReferencesInExpr(expr)
	ctx, cds := s.EvalContext(refs)
	ds = ds.Append(cds)
	if ds.HasErrors() {
		return cty.UnknownVal(want), ds
	}
	val, hd := expr.Value(ctx)
	ds = ds.Append(hd)
	if hd.HasErrors() {
		return cty.UnknownVal(want), ds
	}
	if want != cty.DynamicPseudoType {
		conv, err := typeconv.Convert(val, want)
		if err != nil {
			ds = ds.Append(diags.At(expr.Range(), "Incorrect value type",
				fmt.Sprintf("Invalid expression value: %s.", diags.FormatError(err))))
			return cty.UnknownVal(want), ds
		}
		val = conv
	}
	return val, ds
}

// EvalBlock decodes body against schema, expanding dynamic blocks first.
// The result has the schema's implied type. Bodies evaluated many times
// should be prepared once with PrepareBlock instead.
func (s *Scope) EvalBlock(body hcl.Body, schema *configschema.Block) (cty.Value, diags.Diagnostics) {
	return s.EvalPrepared(PrepareBlock(body, schema))
}

// EvalContext builds an evaluation context holding exactly the objects refs
// name, plus the function table. The diagnostics include Check's.
func (s *Scope) EvalContext(refs []*addrs.Reference) (*hcl.EvalContext, diags.Diagnostics) {
	b := contextBuilder{scope: s}
	if s.Check != nil {
		b.diags = s.Check(refs)
	}
	for _, ref := range refs {
		b.add(ref)
	}
	return b.build(), b.diags
}

// contextBuilder collects the values of referenced objects into the nested
// objects HCL traversals walk (var.x, terraform_data.a, data.t.n, ...).
type contextBuilder struct {
	scope     *Scope
	diags     diags.Diagnostics
	vars      map[string]cty.Value
	locals    map[string]cty.Value
	managed   map[string]map[string]cty.Value
	data      map[string]map[string]cty.Value
	ephemeral map[string]map[string]cty.Value
	count     map[string]cty.Value
	each      map[string]cty.Value
	path      map[string]cty.Value
	terraform map[string]cty.Value
	modules   map[string]cty.Value
	self      bool
}

func (b *contextBuilder) add(ref *addrs.Reference) {
	s := b.scope
	switch sub := ref.Subject.(type) {
	case addrs.InputVariable:
		v, ds := s.Data.InputVariable(sub, ref.SourceRange)
		b.diags = b.diags.Append(ds)
		setIn(&b.vars, sub.Name, v)
	case addrs.LocalValue:
		v, ds := s.Data.LocalValue(sub, ref.SourceRange)
		b.diags = b.diags.Append(ds)
		setIn(&b.locals, sub.Name, v)
	case addrs.Resource:
		b.addResource(sub, ref.SourceRange)
	case addrs.ResourceInstance:
		b.addResource(sub.Resource, ref.SourceRange)
	case addrs.ModuleCall:
		b.addModuleCall(sub, ref.SourceRange)
	case addrs.ModuleCallOutput:
		b.addModuleCall(sub.Call, ref.SourceRange)
	case addrs.CountAttr:
		b.addCount(sub, ref.SourceRange)
	case addrs.ForEachAttr:
		b.addEach(sub, ref.SourceRange)
	case addrs.PathAttr:
		b.addPath(sub, ref.SourceRange)
	case addrs.TerraformAttr:
		if sub.Name != "workspace" {
			b.diags = b.diags.Append(diags.At(ref.SourceRange, "Invalid \"terraform\" attribute",
				fmt.Sprintf("The \"terraform\" object has no attribute %q; the only attribute is \"workspace\".", sub.Name)))
			return
		}
		setIn(&b.terraform, "workspace", cty.StringVal(s.Workspace))
	case addrs.Self:
		if s.Self == cty.NilVal {
			b.diags = b.diags.Append(diags.At(ref.SourceRange, "Invalid \"self\" reference",
				"The \"self\" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks."))
			return
		}
		b.self = true
	}
}

func (b *contextBuilder) addResource(r addrs.Resource, rng hcl.Range) {
	v, ds := b.scope.Data.Resource(r, rng)
	b.diags = b.diags.Append(ds)
	target := &b.managed
	switch r.Mode {
	case addrs.DataResourceMode:
		target = &b.data
	case addrs.EphemeralResourceMode:
		target = &b.ephemeral
	}
	if *target == nil {
		*target = map[string]map[string]cty.Value{}
	}
	byName := (*target)[r.Type]
	if byName == nil {
		byName = map[string]cty.Value{}
		(*target)[r.Type] = byName
	}
	byName[r.Name] = v
}

func (b *contextBuilder) addModuleCall(c addrs.ModuleCall, rng hcl.Range) {
	if _, done := b.modules[c.Name]; done {
		return
	}
	v, ds := b.scope.Data.ModuleCall(c, rng)
	b.diags = b.diags.Append(ds)
	setIn(&b.modules, c.Name, v)
}

func (b *contextBuilder) addCount(a addrs.CountAttr, rng hcl.Range) {
	rep := b.scope.Repetition
	switch {
	case a.Name != "index":
		b.diags = b.diags.Append(diags.At(rng, "Invalid \"count\" attribute",
			fmt.Sprintf("The \"count\" object has no attribute %q; the only attribute is \"index\".", a.Name)))
	case rep.CountIndex == cty.NilVal:
		b.diags = b.diags.Append(diags.At(rng, "Reference to \"count\" in non-counted context",
			"The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set."))
	default:
		setIn(&b.count, "index", rep.CountIndex)
	}
}

func (b *contextBuilder) addEach(a addrs.ForEachAttr, rng hcl.Range) {
	rep := b.scope.Repetition
	switch {
	case a.Name != "key" && a.Name != "value":
		b.diags = b.diags.Append(diags.At(rng, "Invalid \"each\" attribute",
			fmt.Sprintf("The \"each\" object has no attribute %q; its attributes are \"key\" and \"value\".", a.Name)))
	case rep.EachKey == cty.NilVal:
		b.diags = b.diags.Append(diags.At(rng, "Reference to \"each\" in context without for_each",
			"The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set."))
	default:
		setIn(&b.each, "key", rep.EachKey)
		setIn(&b.each, "value", rep.EachValue)
	}
}

func (b *contextBuilder) addPath(a addrs.PathAttr, rng hcl.Range) {
	s := b.scope
	switch a.Name {
	case "module":
		setIn(&b.path, a.Name, cty.StringVal(s.ModuleDir))
	case "root":
		root := s.RootDir
		if root == "" {
			root = s.ModuleDir
		}
		setIn(&b.path, a.Name, cty.StringVal(root))
	case "cwd":
		cwd := s.CWD
		if cwd == "" {
			cwd, _ = os.Getwd()
		}
		setIn(&b.path, "cwd", cty.StringVal(cwd))
	default:
		b.diags = b.diags.Append(diags.At(rng, "Invalid \"path\" attribute",
			fmt.Sprintf("The \"path\" object has no attribute %q; its attributes are \"module\", \"root\" and \"cwd\".", a.Name)))
	}
}

func setIn(m *map[string]cty.Value, k string, v cty.Value) {
	if *m == nil {
		*m = map[string]cty.Value{}
	}
	(*m)[k] = v
}

func (b *contextBuilder) build() *hcl.EvalContext {
	vars := map[string]cty.Value{}
	put := func(name string, m map[string]cty.Value) {
		if m != nil {
			vars[name] = cty.ObjectVal(m)
		}
	}
	put("var", b.vars)
	put("local", b.locals)
	put("count", b.count)
	put("each", b.each)
	put("path", b.path)
	put("terraform", b.terraform)
	put("module", b.modules)
	if b.managed != nil {
		byType := make(map[string]cty.Value, len(b.managed))
		for typ, byName := range b.managed {
			byType[typ] = cty.ObjectVal(byName)
			vars[typ] = byType[typ]
		}
		// resource.TYPE.NAME names the same objects as TYPE.NAME.
		vars["resource"] = cty.ObjectVal(byType)
	}
	putResources(vars, "data", b.data)
	putResources(vars, "ephemeral", b.ephemeral)
	if b.self {
		vars["self"] = b.scope.Self
	}
	return &hcl.EvalContext{Variables: vars, Functions: b.scope.Funcs}
}

// putResources sets vars[root] (data or ephemeral) to the resources of
// one mode, by type and name, when any were referenced.
func putResources(vars map[string]cty.Value, root string, byTypeName map[string]map[string]cty.Value) {
	if byTypeName == nil {
		return
	}
	byType := make(map[string]cty.Value, len(byTypeName))
	for typ, byName := range byTypeName {
		byType[typ] = cty.ObjectVal(byName)
	}
	vars[root] = cty.ObjectVal(byType)
}
