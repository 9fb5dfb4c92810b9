package encryption

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// rawConfig is an encryption body before references are resolved: what
// the block and TF_ENCRYPTION each hold, so that the two can be merged
// first, as OpenTofu does.
type rawConfig struct {
	keyProviders []*rawBlock
	methods      []*rawBlock
	state, plan  *rawTarget
	remote       *rawRemote
	declRange    hcl.Range
}

// rawBlock is a key_provider or method block: its labels and attributes.
type rawBlock struct {
	typ, name  string
	attrs      hcl.Attributes
	typeRange  hcl.Range
	declRange  hcl.Range
	labelRange hcl.Range
}

// addr is the block's address under root ("key_provider" or "method").
func (rb *rawBlock) addr(root string) string { return root + "." + rb.typ + "." + rb.name }

// rawTarget is a state, plan, fallback, default or named remote block.
type rawTarget struct {
	method    hcl.Expression
	enforced  *hcl.Attribute
	fallback  *rawTarget
	declRange hcl.Range
}

type rawRemote struct {
	def   *rawTarget
	named map[string]*rawTarget
	order []string
}

var encryptionSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "key_provider", LabelNames: []string{"type", "name"}},
		{Type: "method", LabelNames: []string{"type", "name"}},
		{Type: "state"},
		{Type: "plan"},
		{Type: "remote_state_data_sources"},
	},
}

var (
	enforcedTargetSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "method"}, {Name: "enforced"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
	}
	targetSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "method"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
	}
	remoteSchema = &hcl.BodySchema{
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "default"},
			{Type: "remote_state_data_source", LabelNames: []string{"name"}},
		},
	}
)

// decodeRaw reads an encryption body's structure.
func decodeRaw(body hcl.Body, declRange hcl.Range) (*rawConfig, hcl.Diagnostics) {
	content, diags := body.Content(encryptionSchema)
	raw := &rawConfig{declRange: declRange}
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "key_provider", "method":
			attrs, ds := blk.Body.JustAttributes()
			diags = append(diags, ds...)
			rb := &rawBlock{typ: blk.Labels[0], name: blk.Labels[1], attrs: attrs,
				typeRange: blk.LabelRanges[0], labelRange: blk.LabelRanges[1], declRange: blk.DefRange}
			if blk.Type == "key_provider" {
				raw.keyProviders = append(raw.keyProviders, rb)
			} else {
				raw.methods = append(raw.methods, rb)
			}
		case "state", "plan":
			t, ds := decodeRawTarget(blk, true)
			diags = append(diags, ds...)
			diags = append(diags, setOnce(blk, &raw.state, &raw.plan, t)...)
		case "remote_state_data_sources":
			r, ds := decodeRawRemote(blk)
			diags = append(diags, ds...)
			if raw.remote != nil {
				diags = append(diags, duplicateBlock(blk))
				continue
			}
			raw.remote = r
		}
	}
	return raw, diags
}

// setOnce stores a state or plan target, refusing a second one.
func setOnce(blk *hcl.Block, state, plan **rawTarget, t *rawTarget) hcl.Diagnostics {
	dst := state
	if blk.Type == "plan" {
		dst = plan
	}
	if *dst != nil {
		return hcl.Diagnostics{duplicateBlock(blk)}
	}
	*dst = t
	return nil
}

func duplicateBlock(blk *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Duplicate " + blk.Type + " block",
		Detail:   "An encryption block has at most one " + blk.Type + " block; merge the two.",
		Subject:  blk.DefRange.Ptr(),
	}
}

func decodeRawTarget(blk *hcl.Block, enforceable bool) (*rawTarget, hcl.Diagnostics) {
	schema := targetSchema
	if enforceable {
		schema = enforcedTargetSchema
	}
	content, diags := blk.Body.Content(schema)
	t := &rawTarget{declRange: blk.DefRange, enforced: content.Attributes["enforced"]}
	if attr, ok := content.Attributes["method"]; ok {
		t.method = attr.Expr
	}
	for _, fb := range content.Blocks {
		if t.fallback != nil {
			diags = append(diags, duplicateBlock(fb))
			continue
		}
		f, ds := decodeRawTarget(fb, false)
		diags = append(diags, ds...)
		t.fallback = f
	}
	return t, diags
}

func decodeRawRemote(blk *hcl.Block) (*rawRemote, hcl.Diagnostics) {
	content, diags := blk.Body.Content(remoteSchema)
	r := &rawRemote{named: map[string]*rawTarget{}}
	for _, b := range content.Blocks {
		t, ds := decodeRawTarget(b, false)
		diags = append(diags, ds...)
		if b.Type == "default" {
			if r.def != nil {
				diags = append(diags, duplicateBlock(b))
				continue
			}
			r.def = t
			continue
		}
		name := b.Labels[0]
		if _, dup := r.named[name]; dup {
			diags = append(diags, duplicateBlock(b))
			continue
		}
		r.named[name] = t
		r.order = append(r.order, name)
	}
	return r, diags
}

// EnvVariable is the environment variable OpenTofu reads encryption
// configuration from, in addition to the encryption block.
const EnvVariable = "TF_ENCRYPTION"

// parseEnv parses TF_ENCRYPTION's value: the content of an encryption
// block, in HCL or (when it starts with "{") in JSON.
func parseEnv(value string) (*rawConfig, hcl.Diagnostics) {
	var file *hcl.File
	var diags hcl.Diagnostics
	if strings.HasPrefix(strings.TrimSpace(value), "{") {
		file, diags = hcljson.Parse([]byte(value), EnvVariable)
	} else {
		file, diags = hclsyntax.ParseConfig([]byte(value), EnvVariable, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	raw, ds := decodeRaw(file.Body, hcl.Range{Filename: EnvVariable, Start: hcl.InitialPos, End: hcl.InitialPos})
	return raw, append(diags, ds...)
}
