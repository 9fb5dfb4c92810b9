package testfiles

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/diags"
)

var testBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "parallel"}}}

// parseTestBlock reads the file's test block (Terraform 1.12): at most
// one, whose parallel is the default of the runs'. prev is the block
// seen before, for the duplicate's diagnostic.
func parseTestBlock(b *hcl.Block, f *File, prev **hcl.Block) diags.Diagnostics {
	var ds diags.Diagnostics
	if *prev != nil {
		return ds.Append(diags.At(b.DefRange, "Duplicate \"test\" block",
			fmt.Sprintf("This test file already has a test block, defined at %s; a file may have only one.", (*prev).DefRange)))
	}
	*prev = b
	content, hd := b.Body.Content(testBlockSchema)
	ds = ds.Append(hd)
	if a, ok := content.Attributes["parallel"]; ok {
		ds = ds.Append(literalBool(a, &f.Parallel))
	}
	return ds
}

// parseProviderMappings reads a run's providers argument: a map from
// the module's configurations to the file's, each written as a
// reference (aws, aws.west) without quotes.
func parseProviderMappings(a *hcl.Attribute) ([]ProviderMapping, diags.Diagnostics) {
	pairs, hd := hcl.ExprMap(a.Expr)
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return nil, ds
	}
	out := []ProviderMapping{}
	for _, kv := range pairs {
		inModule, kds := providerRef(kv.Key)
		inFile, vds := providerRef(kv.Value)
		ds = ds.Append(kds).Append(vds)
		if kds.HasErrors() || vds.HasErrors() {
			continue
		}
		rng := hcl.RangeBetween(kv.Key.Range(), kv.Value.Range())
		out = append(out, ProviderMapping{InModule: inModule, InFile: inFile, Range: rng})
	}
	return out, ds
}

// providerRef reads aws or aws.west written without quotes.
func providerRef(expr hcl.Expression) (ProviderRef, diags.Diagnostics) {
	bad := diags.Diagnostics{diags.At(expr.Range(), "Invalid provider configuration reference",
		"A provider configuration reference must be a provider's local name, optionally followed by a period and an alias (aws or aws.west), without quotes.")}
	t, hd := hcl.AbsTraversalForExpr(expr)
	if hd.HasErrors() || len(t) > 2 {
		return ProviderRef{}, bad
	}
	ref := ProviderRef{Name: t.RootName()}
	if len(t) == 2 {
		attr, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return ProviderRef{}, bad
		}
		ref.Alias = attr.Name
	}
	return ref, nil
}

// checkProviders reports a provider configuration the file declares
// twice (a provider and a mock_provider block, or two of one kind, with
// the same name and alias).
func (f *File) checkProviders() diags.Diagnostics {
	var ds diags.Diagnostics
	seen := map[string]hcl.Range{}
	declare := func(ref ProviderRef, rng hcl.Range) {
		if prev, ok := seen[ref.String()]; ok {
			ds = ds.Append(diags.At(rng, "Duplicate provider configuration",
				fmt.Sprintf("The provider configuration %s is already declared at %s; each provider and mock_provider block of a test file needs its own name and alias.", ref, prev)))
			return
		}
		seen[ref.String()] = rng
	}
	for _, p := range f.Providers {
		declare(ProviderRef{Name: p.Name, Alias: p.Alias}, p.DeclRange)
	}
	for _, mp := range f.Mocks {
		declare(ProviderRef{Name: mp.Name, Alias: mp.Alias}, mp.DeclRange)
	}
	return ds
}

// checkMappings reports, when a run starts, each configuration its
// providers argument names that the file does not declare: the run's
// error, as in Terraform and OpenTofu.
func (f *File) checkMappings(r *Run) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, m := range r.Providers {
		if !f.declares(m.InFile) {
			ds = ds.Append(diags.At(m.Range, "Missing provider definition for "+m.InFile.String(),
				"This provider block references a provider definition that does not exist."))
		}
	}
	return ds
}

func (f *File) declares(ref ProviderRef) bool {
	for _, p := range f.Providers {
		if (ProviderRef{Name: p.Name, Alias: p.Alias}) == ref {
			return true
		}
	}
	for _, mp := range f.Mocks {
		if (ProviderRef{Name: mp.Name, Alias: mp.Alias}) == ref {
			return true
		}
	}
	return false
}
