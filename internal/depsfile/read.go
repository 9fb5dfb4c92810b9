package depsfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// Load reads the lock file at path. A missing file is an empty set of
// locks, not an error; a file that does not parse or holds invalid entries
// gives diagnostics with the file:line:col of the offending part.
func Load(path string) (*Locks, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return NewLocks(), nil
	}
	if err != nil {
		return NewLocks(), hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read dependency lock file",
			Detail:   fmt.Sprintf("Error reading %s: %s.", path, err),
		}}
	}
	return Parse(src, path)
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "provider", LabelNames: []string{"source_addr"}},
	{Type: "module", LabelNames: []string{"path"}},
}}

var providerSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "version", Required: true},
	{Name: "constraints"},
	{Name: "hashes"},
}}

// Parse decodes lock file source; filename is used in source ranges. On
// error the locks returned hold the entries that did decode.
func Parse(src []byte, filename string) (*Locks, hcl.Diagnostics) {
	locks := NewLocks()
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return locks, diags
	}
	content, moreDiags := f.Body.Content(fileSchema)
	diags = append(diags, moreDiags...)
	seen := map[addrs.Provider]hcl.Range{}
	for _, block := range content.Blocks {
		if block.Type == "module" {
			diags = append(diags, errorAt(block.DefRange,
				"Dependency locks for modules are not yet supported",
				"This version only supports dependency locks for providers, not for modules."))
			continue
		}
		lock, lockDiags := decodeProviderBlock(block)
		diags = append(diags, lockDiags...)
		if lock == nil {
			continue
		}
		if prev, dup := seen[lock.Provider]; dup {
			diags = append(diags, errorAt(block.LabelRanges[0], "Duplicate provider lock",
				fmt.Sprintf("This lockfile already declared a lock for provider %s at %s.", lock.Provider, prev)))
			continue
		}
		seen[lock.Provider] = block.DefRange
		locks.providers[lock.Provider] = lock
	}
	return locks, diags
}

// decodeProviderBlock returns nil when the block is too broken to record.
func decodeProviderBlock(block *hcl.Block) (*ProviderLock, hcl.Diagnostics) {
	p, diags := decodeProviderAddr(block.Labels[0], block.LabelRanges[0])
	content, moreDiags := block.Body.Content(providerSchema)
	diags = append(diags, moreDiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	lock := &ProviderLock{Provider: p}
	lock.Version, moreDiags = decodeVersion(p, content.Attributes["version"])
	diags = append(diags, moreDiags...)
	if attr, ok := content.Attributes["constraints"]; ok {
		lock.Constraints, moreDiags = decodeConstraints(p, attr)
		diags = append(diags, moreDiags...)
	}
	if attr, ok := content.Attributes["hashes"]; ok {
		lock.Hashes, moreDiags = decodeHashes(attr)
		diags = append(diags, moreDiags...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return lock, diags
}

func decodeProviderAddr(raw string, rng hcl.Range) (addrs.Provider, hcl.Diagnostics) {
	p, err := addrs.ParseProviderSource(raw)
	if err != nil || strings.Count(raw, "/") != 2 {
		return p, hcl.Diagnostics{errorAt(rng, "Invalid provider source address",
			`The provider source address for a provider lock must be a valid, fully-qualified address of the form "hostname/namespace/type".`)}
	}
	if p.IsBuiltIn() {
		return p, hcl.Diagnostics{errorAt(rng, "Invalid provider source address",
			fmt.Sprintf("Cannot lock a version for built-in provider %s. Built-in providers are bundled inside the engine itself.", p))}
	}
	if p.String() != raw {
		return p, hcl.Diagnostics{errorAt(rng, "Non-normalized provider source address",
			fmt.Sprintf("The provider source address for this provider lock must be written as %q, the fully-qualified and normalized form.", p))}
	}
	return p, nil
}

func decodeVersion(p addrs.Provider, attr *hcl.Attribute) (*version.Version, hcl.Diagnostics) {
	var raw string
	if diags := gohcl.DecodeExpression(attr.Expr, nil, &raw); diags.HasErrors() {
		return nil, diags
	}
	v, err := version.NewSemver(raw)
	if err != nil {
		return nil, hcl.Diagnostics{errorAt(attr.Expr.Range(), "Invalid provider version number",
			fmt.Sprintf("The selected version number for provider %s is invalid: %s.", p, err))}
	}
	if v.String() != raw {
		return nil, hcl.Diagnostics{errorAt(attr.Expr.Range(), "Invalid provider version number",
			fmt.Sprintf("The selected version number for provider %s must be written in normalized form: %q.", p, v.String()))}
	}
	return v, nil
}

func decodeConstraints(p addrs.Provider, attr *hcl.Attribute) (getproviders.Constraints, hcl.Diagnostics) {
	var raw string
	if diags := gohcl.DecodeExpression(attr.Expr, nil, &raw); diags.HasErrors() {
		return nil, diags
	}
	cs, err := getproviders.ParseConstraints(raw)
	if err != nil {
		return nil, hcl.Diagnostics{errorAt(attr.Expr.Range(), "Invalid provider version constraints",
			fmt.Sprintf("The recorded version constraints for provider %s are invalid: %s.", p, err))}
	}
	if canon := cs.String(); canon != raw {
		return nil, hcl.Diagnostics{errorAt(attr.Expr.Range(), "Invalid provider version constraints",
			fmt.Sprintf("The recorded version constraints for provider %s must be written in normalized form: %q.", p, canon))}
	}
	return cs, nil
}

func decodeHashes(attr *hcl.Attribute) ([]string, hcl.Diagnostics) {
	var raw []string
	if diags := gohcl.DecodeExpression(attr.Expr, nil, &raw); diags.HasErrors() {
		return nil, diags
	}
	if len(raw) == 0 {
		return nil, hcl.Diagnostics{errorAt(attr.Expr.Range(), "Invalid provider hash set",
			`The "hashes" argument must either be omitted or contain at least one hash value.`)}
	}
	var diags hcl.Diagnostics
	for _, h := range raw {
		scheme, _, ok := strings.Cut(h, ":")
		if !ok || scheme == "" {
			diags = append(diags, errorAt(attr.Expr.Range(), "Invalid provider hash string",
				fmt.Sprintf("Cannot interpret %q as a provider hash: must start with a scheme keyword followed by a colon, like \"h1:\".", h)))
		}
	}
	return raw, diags
}

func errorAt(rng hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}
