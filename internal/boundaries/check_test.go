package boundaries

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// doc is a doc.go whose rule lines, if any, start on line 5.
func doc(pkg string, rules ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is a package of the test module.\n", pkg)
	if len(rules) > 0 {
		fmt.Fprintf(&b, "//\n// Imports:\n//\n")
	}
	for _, r := range rules {
		fmt.Fprintf(&b, "//\t%s\n", r)
	}
	fmt.Fprintf(&b, "package %s\n", pkg)
	return b.String()
}

// src is a Go file of package pkg importing the module's packages
// named from its root and the standard library's as written.
func src(pkg string, imports ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for _, imp := range imports {
		if strings.HasPrefix(imp, "internal/") || strings.HasPrefix(imp, "cmd/") {
			imp = "example.com/m/" + imp
		}
		fmt.Fprintf(&b, "import _ %q\n", imp)
	}
	return b.String()
}

// writeModule lays out a module example.com/m in a temporary directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCheckNamesTheCrossing runs the checker over small modules that
// cross (or keep) a stated boundary and compares every message.
func TestCheckNamesTheCrossing(t *testing.T) {
	engine := map[string]string{
		"internal/engine/doc.go": doc("engine"),
		"internal/engine/e.go":   src("engine"),
		"internal/low/doc.go":    doc("low"),
		"internal/low/l.go":      src("low"),
	}
	tests := map[string]struct {
		reason string
		files  map[string]string
		want   []string
	}{
		"direct import denied": {
			reason: "An import a deny line matches fails with the edge, the reason and the rule's line.",
			files: map[string]string{
				"internal/front/doc.go": doc("front", "deny internal/... # front ends reach the engine only through low", "allow internal/low"),
				"internal/front/f.go":   src("front", "internal/low", "internal/engine"),
			},
			want: []string{"internal/front imports internal/engine: front ends reach the engine only through low (rule in internal/front/doc.go:5)"},
		},
		"rules hold below their directory": {
			reason: "A subpackage with no rules of its own is held to its parent's.",
			files: map[string]string{
				"internal/front/doc.go":     doc("front", "deny internal/engine # through low only"),
				"internal/front/f.go":       src("front"),
				"internal/front/sub/doc.go": doc("sub"),
				"internal/front/sub/s.go":   src("sub", "internal/engine"),
			},
			want: []string{"internal/front/sub imports internal/engine: through low only (rule in internal/front/doc.go:5)"},
		},
		"nearer allow decides": {
			reason: "A subpackage's allow line is an exception to its parent's deny.",
			files: map[string]string{
				"internal/front/doc.go":     doc("front", "deny internal/... # through low only"),
				"internal/front/f.go":       src("front"),
				"internal/front/sub/doc.go": doc("sub", "allow internal/engine"),
				"internal/front/sub/s.go":   src("sub", "internal/engine"),
			},
		},
		"nearer deny decides": {
			reason: "A subpackage's deny line narrows what its parent allows.",
			files: map[string]string{
				"internal/front/doc.go":     doc("front", "deny internal/... # through low only", "allow internal/low"),
				"internal/front/f.go":       src("front", "internal/low"),
				"internal/front/sub/doc.go": doc("sub", "deny internal/low # names only"),
				"internal/front/sub/s.go":   src("sub", "internal/low"),
			},
			want: []string{"internal/front/sub imports internal/low: names only (rule in internal/front/sub/doc.go:5)"},
		},
		"linked through another package": {
			reason: "A deny linked line fails a dependency at any depth and names the chain that brings it in.",
			files: map[string]string{
				"cmd/plugin/doc.go":     doc("main", "deny linked internal/engine # a plugin links only what it serves"),
				"cmd/plugin/main.go":    src("main", "internal/front") + "\nfunc main() {}\n",
				"internal/front/doc.go": doc("front"),
				"internal/front/f.go":   src("front", "internal/low"),
				"internal/low/l.go":     src("low", "internal/engine"),
			},
			want: []string{"cmd/plugin links internal/engine (cmd/plugin → internal/front → internal/low → internal/engine): a plugin links only what it serves (rule in cmd/plugin/doc.go:5)"},
		},
		"standard library patterns": {
			reason: "A path whose first element is not a directory of the module is an import path; std is the standard library.",
			files: map[string]string{
				"internal/front/doc.go":      doc("front", "deny net/... # no network"),
				"internal/front/f.go":        src("front", "net/http", "strings"),
				"internal/front/leaf/doc.go": doc("leaf", "deny ... # the standard library only", "allow std"),
				"internal/front/leaf/l.go":   src("leaf", "fmt", "internal/low"),
			},
			want: []string{
				"internal/front imports net/http: no network (rule in internal/front/doc.go:5)",
				"internal/front/leaf imports internal/low: the standard library only (rule in internal/front/leaf/doc.go:5)",
			},
		},
		"tests only": {
			reason: "A test-support package may be imported by test files, not by a package's code.",
			files: map[string]string{
				"internal/testhelp/doc.go": doc("testhelp", "tests only"),
				"internal/testhelp/h.go":   src("testhelp"),
				"internal/front/doc.go":    doc("front"),
				"internal/front/f.go":      src("front", "internal/testhelp"),
				"internal/back/doc.go":     doc("back"),
				"internal/back/b.go":       src("back"),
				"internal/back/b_test.go":  src("back", "internal/testhelp"),
			},
			want: []string{"internal/front imports internal/testhelp, which is for tests only (rule in internal/testhelp/doc.go:5)"},
		},
		"environment, flags, terminal and init": {
			reason: "Reading the process is the command line's; passing values in, or a FlagSet over passed arguments, is not reading it.",
			files: map[string]string{
				"internal/front/doc.go": doc("front"),
				"internal/front/f.go": `package front

import (
	"flag"
	stdos "os"
	"os/signal"
)

func init() {}

func Read(args []string) {
	_ = stdos.Getenv("HOME")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	_ = fs.Parse(args)
	flag.Parse()
	_ = stdos.Args
	signal.Reset()
}
`,
				"internal/cli/doc.go": doc("cli", "uses flags environment terminal init # the command line reads the process"),
				"internal/cli/c.go":   "package cli\n\nimport \"os\"\n\nfunc init() { _ = os.Getenv(\"HOME\"); _ = os.Stdout }\n",
			},
			want: []string{
				`internal/front/f.go:6: internal/front uses the terminal (import "os/signal"): only the command line reads flags, the environment or the terminal; pass what is needed in, or state "uses terminal # why" in internal/front/doc.go`,
				`internal/front/f.go:9: func init: packages have no init side effects; do the work where it is called, or state "uses init # why" in internal/front/doc.go`,
				`internal/front/f.go:12: internal/front reads the environment (stdos.Getenv): only the command line reads flags, the environment or the terminal; pass what is needed in, or state "uses environment # why" in internal/front/doc.go`,
				`internal/front/f.go:15: internal/front reads the process's flags (flag.Parse): only the command line reads flags, the environment or the terminal; pass what is needed in, or state "uses flags # why" in internal/front/doc.go`,
				`internal/front/f.go:16: internal/front reads the process's flags (stdos.Args): only the command line reads flags, the environment or the terminal; pass what is needed in, or state "uses flags # why" in internal/front/doc.go`,
			},
		},
		"doc.go missing or unreadable": {
			reason: "Every package states its boundary; a rule the checker cannot read, or one naming no package, would hold nothing.",
			files: map[string]string{
				"internal/nodoc/n.go":    src("nodoc"),
				"internal/bad/doc.go":    doc("bad", "forbid internal/engine # a verb the checker does not know"),
				"internal/bad/b.go":      src("bad"),
				"internal/stale/doc.go":  doc("stale", "deny internal/engin # a typo"),
				"internal/stale/s.go":    src("stale"),
				"internal/noreas/doc.go": doc("noreas", "deny internal/engine"),
				"internal/noreas/n.go":   src("noreas"),
			},
			want: []string{
				"internal/nodoc has no doc.go: every package states its boundary in one",
				`internal/bad/doc.go:5: unknown rule "forbid": a line is deny, deny linked, allow, uses or tests only`,
				`internal/noreas/doc.go:5: "deny" needs a reason after "#": it is what a crossing's message says`,
				"internal/stale/doc.go:5: internal/engin matches no package of the module",
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range engine {
				files[k] = v
			}
			for k, v := range tc.files {
				files[k] = v
			}
			g, err := Load(writeModule(t, files))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range Check(g) {
				got = append(got, v.Message)
			}
			sort.Strings(got)
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s\nviolations (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
