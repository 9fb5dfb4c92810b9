package configs

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// List is a list block of a *.tfquery.hcl file (Terraform 1.14's
// "terraform query"): which objects of resource type Type to list, with
// the provider's own arguments in its config block.
type List struct {
	Type, Name        string
	ProviderConfigRef *ProviderConfigRef
	// Config is the config block's body, nil when the block has none.
	Config hcl.Body
	// IncludeResource and Limit are the arguments of the same names, nil
	// when absent (false and 100).
	IncludeResource, Limit hcl.Expression
	DeclRange              hcl.Range
}

// QueryFileExt is the suffix of the files list blocks live in.
const QueryFileExt = ".tfquery.hcl"

var queryFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "list", LabelNames: []string{"type", "name"}}}}

var listBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "provider"}, {Name: "include_resource"}, {Name: "limit"}, {Name: "count"}, {Name: "for_each"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "config"}},
}

// LoadQueryFiles reads the list blocks of the *.tfquery.hcl files in dir,
// in file name order. Two blocks with the same type and name are an
// error, as two resources with the same address are.
func LoadQueryFiles(dir string) ([]*List, hcl.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read configuration directory", Detail: err.Error()}}
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), QueryFileExt) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	parser := hclparse.NewParser()
	var out []*List
	var diags hcl.Diagnostics
	seen := map[string]*List{}
	for _, n := range names {
		f, ds := parser.ParseHCLFile(filepath.Join(dir, n))
		if diags = append(diags, ds...); ds.HasErrors() {
			continue
		}
		content, ds := f.Body.Content(queryFileSchema)
		diags = append(diags, ds...)
		for _, b := range content.Blocks {
			l, ds := decodeListBlock(b)
			if diags = append(diags, ds...); l == nil {
				continue
			}
			key := l.Type + "." + l.Name
			if prev := seen[key]; prev != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate list block",
					Detail: "A list block named list." + key + " was already declared at " + prev.DeclRange.String() + ".", Subject: b.DefRange.Ptr()})
				continue
			}
			seen[key] = l
			out = append(out, l)
		}
	}
	return out, diags
}

func decodeListBlock(b *hcl.Block) (*List, hcl.Diagnostics) {
	content, diags := b.Body.Content(listBlockSchema)
	l := &List{Type: b.Labels[0], Name: b.Labels[1], DeclRange: b.DefRange}
	for _, name := range []string{"count", "for_each"} {
		if a, ok := content.Attributes[name]; ok {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported argument",
				Detail: "Cairn's list blocks do not support " + name + " yet.", Subject: a.Range.Ptr()})
		}
	}
	if a, ok := content.Attributes["provider"]; ok {
		ref, ds := decodeProviderConfigRef(a.Expr)
		diags, l.ProviderConfigRef = append(diags, ds...), ref
	}
	if a, ok := content.Attributes["include_resource"]; ok {
		l.IncludeResource = a.Expr
	}
	if a, ok := content.Attributes["limit"]; ok {
		l.Limit = a.Expr
	}
	for _, cb := range content.Blocks {
		if l.Config != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate config block",
				Detail: "A list block has at most one config block.", Subject: cb.DefRange.Ptr()})
			continue
		}
		l.Config = cb.Body
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return l, diags
}

// ProviderConfigAddr is the provider configuration the list block uses
// in the root module m: its provider argument's, or the default one of
// the provider its type's prefix names.
func (l *List) ProviderConfigAddr(m *Module) addrs.AbsProviderConfig {
	name, alias := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: l.Type}.ImpliedProviderType(), ""
	if l.ProviderConfigRef != nil {
		name, alias = l.ProviderConfigRef.Name, l.ProviderConfigRef.Alias
	}
	return addrs.AbsProviderConfig{Provider: m.providerForLocalName(name), Alias: alias}
}
