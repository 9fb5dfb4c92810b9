package awscc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"
)

// corpusDir is the shared directory of real CloudFormation schemas,
// relative to this package; CAIRN_CFN_SCHEMAS overrides it. Tests that
// need it skip when it is absent.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("CAIRN_CFN_SCHEMAS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared", "cfn-schemas")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the CloudFormation schema corpus is not available at %s (set CAIRN_CFN_SCHEMAS): %v", dir, err)
	}
	return dir
}

// diagSummary is what the tests compare of a diagnostic: severity,
// summary and attribute path, not the detail text.
type diagSummary struct {
	Severity diags.Severity
	Summary  string
	Path     string
}

func summarize(ds diags.Diagnostics) []diagSummary {
	var out []diagSummary
	for _, d := range ds {
		p := ""
		for _, step := range d.Path {
			if s, ok := step.(cty.GetAttrStep); ok {
				p += "." + s.Name
			} else {
				p += "[*]"
			}
		}
		out = append(out, diagSummary{d.Severity, d.Summary, p})
	}
	return out
}

var cmpSorted = cmpopts.SortSlices(func(a, b string) bool { return a < b })

// corpusSchemas copies the corpus schemas of types into a new directory
// for the provider, and returns it with the schemas by type name.
func corpusSchemas(t testing.TB, types []string) (string, map[string][]byte) {
	t.Helper()
	corpus := corpusDir(t)
	dir := t.TempDir()
	schemas := make(map[string][]byte, len(types))
	for _, name := range types {
		file := strings.ReplaceAll(name, "::", "_") + ".json"
		schema, err := os.ReadFile(filepath.Join(corpus, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, file), schema, 0o600); err != nil {
			t.Fatal(err)
		}
		schemas[name] = schema
	}
	return dir, schemas
}
