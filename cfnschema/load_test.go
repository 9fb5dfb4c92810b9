package cfnschema

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diagSummary is the part of a diagnostic tests compare: severity, summary
// and location, not the detail text.
type diagSummary struct {
	Severity  Severity
	Summary   string
	Pointer   string
	Line, Col int
}

func summarizeDiags(ds Diagnostics) []diagSummary {
	var out []diagSummary
	for _, d := range ds {
		out = append(out, diagSummary{d.Severity, d.Summary, d.Pointer, d.Line, d.Column})
	}
	return out
}

func TestLoadDiagnostics(t *testing.T) {
	cases := map[string]struct {
		reason   string
		file     string
		wantType bool
		want     []diagSummary
	}{
		"invalid json": {"a syntax error names the file and the position", "invalid_json", false,
			[]diagSummary{{Error, "Invalid schema JSON", "", 5, 1}}},
		"broken ref": {"names the pointer of the $ref", "broken_ref", false,
			[]diagSummary{{Error, "Unresolvable $ref", "/properties/Config/$ref", 5, 24}}},
		"external ref": {"only local #/definitions and #/properties references resolve", "external_ref", false,
			[]diagSummary{{Error, "Unresolvable $ref", "/properties/Config/$ref", 4, 24}}},
		"unknown type": {"", "unknown_type", false,
			[]diagSummary{{Error, "Unknown type", "/properties/Things/items/type", 5, 51}}},
		"bad pattern": {"a pattern no engine compiles is a warning: the type loads without that validator", "bad_pattern", true,
			[]diagSummary{{Warning, "Uncompilable pattern", "/properties/Name/pattern", 4, 43}}},
		"missing typeName": {"", "missing_typename", false,
			[]diagSummary{{Error, "Missing typeName", "", 0, 0}}},
		"bad typeName": {"", "bad_typename", false,
			[]diagSummary{{Error, "Invalid type name", "/typeName", 2, 15}}},
		"wrong keyword type": {"a keyword of the wrong JSON type is named by its pointer", "wrong_keyword_type", false,
			[]diagSummary{{Error, "Invalid schema JSON", "/required", 6, 21}}},
		"null property": {"", "null_property", false,
			[]diagSummary{{Error, "Invalid property", "/properties/Name", 4, 13}}},
		"circular ref": {"a $ref loop without structure cannot hang the loader", "circular_ref", false,
			[]diagSummary{{Error, "Circular $ref", "/properties/A/$ref", 4, 19}, {Error, "Circular $ref", "/properties/B/$ref", 5, 19}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join("testdata", "bad", tc.file+".json")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rt, diags := Load(file, src)
			if (rt != nil) != tc.wantType {
				t.Errorf("%s\ntype loaded = %v, want %v", tc.reason, rt != nil, tc.wantType)
			}
			if diff := cmp.Diff(tc.want, summarizeDiags(diags)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			for _, d := range diags {
				if d.File != file {
					t.Errorf("diagnostic names file %q, want %q", d.File, file)
				}
			}
		})
	}
}

func TestLoadDirKeepsGoodTypes(t *testing.T) {
	c, diags := LoadDir(filepath.Join("testdata", "mixed"))
	var got []string
	for _, rt := range c.Types() {
		got = append(got, rt.TypeName)
	}
	want := []string{"Test::Bad::Pattern", "Test::Rules::Arrays", "Test::Rules::Types"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bad files never stop the others from loading: -want +got:\n%s", diff)
	}
	wantDiags := []diagSummary{
		{Warning, "Uncompilable pattern", "/properties/Name/pattern", 4, 43},
		{Error, "Unresolvable $ref", "/properties/Config/$ref", 5, 24},
		{Error, "Invalid schema JSON", "", 5, 1},
		{Error, "Duplicate type", "/typeName", 0, 0},
	}
	if diff := cmp.Diff(wantDiags, summarizeDiags(diags)); diff != "" {
		t.Errorf("diagnostics in file order: -want +got:\n%s", diff)
	}
}

func TestLoadDirMissing(t *testing.T) {
	c, diags := LoadDir(filepath.Join("testdata", "no-such-dir"))
	if c == nil || len(c.Types()) != 0 {
		t.Errorf("a missing directory gives an empty catalog")
	}
	if diff := cmp.Diff([]diagSummary{{Error, "Cannot read schema directory", "", 0, 0}}, summarizeDiags(diags)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{Severity: Error, File: "a.json", Pointer: "/properties/X/$ref", Line: 3, Column: 7, Summary: "Unresolvable $ref", Detail: "no such definition"}
	want := "a.json:3:7: error: Unresolvable $ref (at /properties/X/$ref): no such definition"
	if diff := cmp.Diff(want, d.String()); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

func TestLocatePointer(t *testing.T) {
	src := []byte("{\n  \"a\": {\"b\": [1, {\"c~/d\": true}]},\n  \"e\": 2\n}")
	cases := map[string]struct {
		reason    string
		pointer   string
		line, col int
	}{
		"member":        {"", "/e", 3, 8},
		"nested":        {"", "/a/b", 2, 14},
		"array index":   {"", "/a/b/1", 2, 18},
		"escaped":       {"~0 and ~1 unescape to ~ and /", "/a/b/1/c~0~1d", 2, 27},
		"missing":       {"a pointer to nothing has no position", "/x", 0, 0},
		"bad index":     {"", "/a/b/9", 0, 0},
		"not a pointer": {"", "a", 0, 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			line, col := locatePointer(src, tc.pointer)
			if diff := cmp.Diff([2]int{tc.line, tc.col}, [2]int{line, col}); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestLoadIsDeterministic(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, firstDiags := Load(file, src)
			for i := 0; i < 5; i++ {
				again, diags := Load(file, src)
				if diff := cmp.Diff(firstDiags, diags); diff != "" {
					t.Fatalf("diagnostics differ between runs: -first +again:\n%s", diff)
				}
				if first != nil && first.Explain() != again.Explain() {
					t.Fatalf("translation differs between runs")
				}
			}
		})
	}
}
