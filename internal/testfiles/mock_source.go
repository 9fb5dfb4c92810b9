package testfiles

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
)

var mockDataFileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "mock_resource", LabelNames: []string{"type"}},
	{Type: "mock_data", LabelNames: []string{"type"}},
	{Type: "override_resource"}, {Type: "override_data"},
}}

// LoadMockSources reads the mock data files of every mock_provider
// block with a source (Terraform 1.7's shared mock data): the
// *.tfmock.hcl and *.tfmock.json files of that directory, relative to
// root, in name order. Their mock_resource and mock_data blocks add the
// types the block itself does not give; their override blocks come
// before the block's own, which so win for the same target. It returns
// the files read by their slash paths (for diagnostics' snippets).
func (f *File) LoadMockSources(root string) (map[string][]byte, diags.Diagnostics) {
	read := map[string][]byte{}
	var ds diags.Diagnostics
	for _, mp := range f.Mocks {
		if mp.Source == "" {
			continue
		}
		names, err := mockFileNames(filepath.Join(root, filepath.FromSlash(mp.Source)))
		if err != nil {
			ds = ds.Append(diags.At(mp.SourceRange, "Failed to read mock data",
				fmt.Sprintf("The mock data directory %q cannot be read: %s.", mp.Source, err)))
			continue
		}
		shared := &MockProvider{Resources: map[string]cty.Value{}, Data: map[string]cty.Value{}, DuringPlan: mp.DuringPlan}
		for _, name := range names {
			rel := path.Join(filepath.ToSlash(mp.Source), name)
			src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				ds = ds.Append(diags.At(mp.SourceRange, "Failed to read mock data", fmt.Sprintf("%s.", err)))
				continue
			}
			read[rel] = src
			ds = ds.Append(shared.parseMockFile(rel, src))
		}
		mp.mergeShared(shared)
	}
	return read, ds
}

// mockFileNames lists the mock data files of dir in name order.
func mockFileNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".tfmock.hcl") || strings.HasSuffix(n, ".tfmock.json")) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// parseMockFile adds one mock data file's blocks to mp.
func (mp *MockProvider) parseMockFile(name string, src []byte) diags.Diagnostics {
	var hf *hcl.File
	var hd hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		hf, hd = json.Parse(src, name)
	} else {
		hf, hd = hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	}
	var ds diags.Diagnostics
	if ds = ds.Append(hd); hd.HasErrors() {
		return ds
	}
	content, hd := hf.Body.Content(mockDataFileSchema)
	ds = ds.Append(hd)
	return ds.Append(mp.addBlocks(content.Blocks))
}

// mergeShared takes what the shared files give that mp does not.
func (mp *MockProvider) mergeShared(shared *MockProvider) {
	for typ, v := range shared.Resources {
		if _, ok := mp.Resources[typ]; !ok {
			mp.Resources[typ] = v
		}
	}
	for typ, v := range shared.Data {
		if _, ok := mp.Data[typ]; !ok {
			mp.Data[typ] = v
		}
	}
	mp.Overrides = append(shared.Overrides, mp.Overrides...)
}
