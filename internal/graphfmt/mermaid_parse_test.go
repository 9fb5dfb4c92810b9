package graphfmt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/testbrowser"
)

// mermaidGoldens are the Mermaid files the tests of Cairn hold: this
// package's, one per graph type `cairn graph` draws (internal/command),
// and one per operation-graph scenario (internal/planning).
func mermaidGoldens(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"testdata/*.mmd", "../command/testdata/graph/*.mmd", "../planning/testdata/opgraph/*.mmd"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			t.Fatalf("no Mermaid goldens match %s", pattern)
		}
		files = append(files, m...)
	}
	return files
}

// mermaidPage opens a blank page with Mermaid loaded, from the npm
// package scripts/install-mermaid.sh puts in $CAIRN_MERMAID: the script's
// text is evaluated in the page, so nothing is fetched.
func mermaidPage(t *testing.T) *testbrowser.Page {
	t.Helper()
	dir := os.Getenv("CAIRN_MERMAID")
	if dir == "" {
		t.Skip("CAIRN_MERMAID is unset: scripts/install-mermaid.sh installs Mermaid and prints the directory (make test does)")
	}
	script, err := os.ReadFile(filepath.Join(dir, "node_modules", "mermaid", "dist", "mermaid.min.js"))
	if err != nil {
		t.Fatalf("CAIRN_MERMAID=%s: %v", dir, err)
	}
	p := testbrowser.New(t).OpenHTML(t, `<!doctype html><meta charset="utf-8"><title>mermaid</title><body><div id="out"></div></body>`)
	var loaded string
	p.Eval(t, string(script)+"\n;mermaid.initialize({startOnLoad: false, securityLevel: \"strict\"}); typeof mermaid.parse", &loaded)
	if loaded != "function" {
		t.Fatalf("%s defines no mermaid.parse (typeof: %s)", dir, loaded)
	}
	return p
}

// parseJS calls mermaid.parse on a text and returns "" when it parses, or
// Mermaid's message.
const parseJS = `(async (text) => {
	try { await mermaid.parse(text); return ""; }
	catch (e) { return String((e && e.message) || e) || "rejected"; }
})(%s)`

func mermaidParse(t *testing.T, p *testbrowser.Page, text string) string {
	t.Helper()
	arg, err := json.Marshal(text)
	if err != nil {
		t.Fatal(err)
	}
	var msg string
	p.Eval(t, strings.Replace(parseJS, "%s", string(arg), 1), &msg)
	return msg
}

// TestMermaidGoldensParse runs Mermaid's own parser over every Mermaid
// golden, and over texts it must reject (so the check can fail): broken
// syntax, and the awkward graph written without escaping its labels.
func TestMermaidGoldensParse(t *testing.T) {
	p := mermaidPage(t)
	files := mermaidGoldens(t)
	t.Logf("parsing %d Mermaid goldens", len(files))
	for _, file := range files {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if msg := mermaidParse(t, p, string(text)); msg != "" {
			t.Errorf("%s: Mermaid rejects it: %s", file, msg)
		}
	}
	var awkward strings.Builder
	if err := WriteMermaid(&awkward, awkwardGraph()); err != nil {
		t.Fatal(err)
	}
	unescaped := strings.ReplaceAll(awkward.String(), "#quot;", `"`)
	for name, text := range map[string]string{
		"unterminated label": "flowchart LR\n  n0[\"unterminated\n",
		"unknown diagram":    "flowchat LR\n  n0 --> n1\n",
		"unescaped quotes":   unescaped,
	} {
		if msg := mermaidParse(t, p, text); msg == "" {
			t.Errorf("%s: Mermaid parses it, want an error:\n%s", name, text)
		}
	}
}

// renderJS renders a text to SVG in the page and returns the text of each
// node, in document order.
const renderJS = `(async (text) => {
	const {svg} = await mermaid.render("graph" + Date.now(), text);
	const out = document.getElementById("out");
	out.innerHTML = svg;
	return Array.from(out.querySelectorAll("g.node")).map(n => n.textContent);
})(%s)`

func mermaidRender(t *testing.T, p *testbrowser.Page, text string) []string {
	t.Helper()
	arg, err := json.Marshal(text)
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	p.Eval(t, strings.Replace(renderJS, "%s", string(arg), 1), &shown)
	return shown
}

// TestMermaidRendersLabels draws two goldens with Mermaid: the awkward
// graph, whose every node must show its label exactly (the escapes decode
// to the characters they stand for, and no label turns into markup), and
// the operation graph of a plan from internal/command, whose every node
// must be drawn. Screenshots of both are kept as test artifacts.
func TestMermaidRendersLabels(t *testing.T) {
	p := mermaidPage(t)
	text, err := os.ReadFile(filepath.Join("testdata", "awkward.mmd"))
	if err != nil {
		t.Fatal(err)
	}
	shown := mermaidRender(t, p, string(text))
	p.Screenshot(t, "awkward")
	want := awkwardLabels()
	slices.Sort(want)
	slices.Sort(shown)
	if !slices.Equal(shown, want) {
		t.Errorf("Mermaid shows the nodes as\n%q\nwant\n%q", shown, want)
	}
	var markup int
	p.Eval(t, `document.querySelectorAll("#out script, #out b").length`, &markup)
	if markup != 0 {
		t.Errorf("a label became markup: %d script or b elements in the drawing", markup)
	}

	apply, err := os.ReadFile(filepath.Join("..", "command", "testdata", "graph", "apply.mmd"))
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, line := range strings.Split(string(apply), "\n") {
		if strings.HasPrefix(line, "  n") && !strings.Contains(line, " --> ") {
			nodes++
		}
	}
	if got := len(mermaidRender(t, p, string(apply))); got != nodes || nodes == 0 {
		t.Errorf("Mermaid draws %d nodes of apply.mmd, want its %d", got, nodes)
	}
	p.Screenshot(t, "apply")
}
