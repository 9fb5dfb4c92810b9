package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/genconfig"
	"github.com/cairn-iac/cairn/internal/planning"
)

// generatedBlocks are the resource block and the import block
// -generate-config-out writes for the i-th object of a list block: the
// resource is named after the block and i (list "x" "all" → TYPE.all_0),
// and written from the configuration the provider generated when it did
// (GenerateResourceConfig), else from the listed object by
// internal/genconfig. The import block names the object by
// its identity.
func generatedBlocks(r planning.QueryResult, i int) (resource, importBlock string) {
	name := fmt.Sprintf("%s_%d", r.List.Name, i)
	ref := ""
	if pr := r.List.ProviderConfigRef; pr != nil {
		ref = providerRefText(pr)
	}
	val := r.Config
	if val == cty.NilVal {
		val = r.Object
	}
	if r.Schema != nil {
		if val == cty.NilVal {
			val = cty.NullVal(r.Schema.ImpliedType())
		}
		resource = genconfig.Resource(r.List.Type, name, ref, r.Schema, val)
	}
	f := hclwrite.NewEmptyFile()
	imp := f.Body().AppendNewBlock("import", nil).Body()
	imp.SetAttributeRaw("to", hclwrite.TokensForIdentifier(r.List.Type+"."+name))
	if ref != "" {
		imp.SetAttributeRaw("provider", hclwrite.TokensForIdentifier(ref))
	}
	imp.SetAttributeValue("identity", r.Identity)
	return resource, string(hclwrite.Format(f.Bytes()))
}
