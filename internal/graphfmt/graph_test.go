package graphfmt

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// awkwardLabels are names a graph's nodes can have: Terraform addresses
// with for_each keys holding quotes, brackets, Mermaid's entity marker
// and comment marker, HTML's special characters, arrows, words Mermaid
// reserves, spaces and characters outside ASCII.
func awkwardLabels() []string {
	return []string{
		`aws_s3_bucket.b["a"]`,
		`module.m["x\"y"].aws_iam_role.r[0]`,
		`test_thing.k["#quot; stays #35; literal"]`,
		`test_thing.k["<b>bold</b> & <script>alert(1)</script>"]`,
		`test_thing.k["a --> b; c -.- d | e"]`,
		`test_thing.k["%% not a comment"]`,
		`test_thing.k["{curly} (round) [square] ((double))"]`,
		"test_thing.k[\"tab\\tand `backtick`\"]",
		`end`,
		`test_thing.k["ünïcödé ✓ 日本"] (create)`,
		`test_thing.k["trailing backslash\\"]`,
		`provider["registry.terraform.io/hashicorp/aws"].west`,
	}
}

// awkwardGraph has a node of every shape per awkward label, and edges
// between neighbours, in both directions and repeated.
func awkwardGraph() *Graph {
	g := &Graph{}
	shapes := []Shape{Box, Diamond, Note, Ellipse}
	for i, l := range awkwardLabels() {
		g.Nodes = append(g.Nodes, Node{ID: l, Label: l, Shape: shapes[i%len(shapes)]})
	}
	for i := 1; i < len(g.Nodes); i++ {
		g.Edges = append(g.Edges, Edge{From: i, To: i - 1}, Edge{From: i - 1, To: (i + 3) % len(g.Nodes)}, Edge{From: i, To: i - 1})
	}
	return g
}

// TestWriteGolden draws the awkward graph in each format and compares it
// with testdata/awkward.FORMAT (rewritten with -update); the Mermaid file
// is also parsed and rendered by Mermaid (TestMermaidGoldensParse).
func TestWriteGolden(t *testing.T) {
	g := awkwardGraph()
	g.SortNodes()
	g.SortEdges()
	for _, f := range []struct {
		format Format
		ext    string
	}{{DOT, "dot"}, {Mermaid, "mmd"}} {
		var b strings.Builder
		if err := Write(&b, g, f.format); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "awkward."+f.ext)
		if *update {
			if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%s (run with -update to create it)", err)
		}
		if diff := cmp.Diff(string(want), b.String()); diff != "" {
			t.Errorf("%s: -want +got:\n%s", golden, diff)
		}
	}
}

// TestSortIsDOTLineOrder holds the canonical order to what Cairn's DOT
// writers did before the graph model existed: sort the printed node lines
// and the printed edge lines as strings and drop repeated edge lines. The
// DOT output of every graph stays byte for byte what it was only while
// the two orders agree, which labels with spaces and quotes make subtle
// ("a b" sorts before "a" once quoted).
func TestSortIsDOTLineOrder(t *testing.T) {
	labels := append(awkwardLabels(), "a", "a b", "a!", `a"`, "a (destroy)", "a.b", "A", "")
	g := &Graph{}
	for i, l := range labels {
		g.Nodes = append(g.Nodes, Node{ID: l, Label: l, Shape: Shape(i % 4)})
		for j := 0; j < i; j += 3 {
			g.Edges = append(g.Edges, Edge{From: i, To: j}, Edge{From: j, To: i})
		}
	}
	var before strings.Builder
	if err := WriteDOT(&before, g); err != nil {
		t.Fatal(err)
	}
	nodeLines, edgeLines := dotBody(before.String())
	slices.Sort(nodeLines)
	slices.Sort(edgeLines)
	edgeLines = slices.Compact(edgeLines)

	g.SortNodes()
	g.SortEdges()
	var after strings.Builder
	if err := WriteDOT(&after, g); err != nil {
		t.Fatal(err)
	}
	gotNodes, gotEdges := dotBody(after.String())
	if diff := cmp.Diff(nodeLines, gotNodes); diff != "" {
		t.Errorf("nodes: -sorted lines +SortNodes:\n%s", diff)
	}
	if diff := cmp.Diff(edgeLines, gotEdges); diff != "" {
		t.Errorf("edges: -sorted lines +SortEdges:\n%s", diff)
	}
}

// dotBody splits the DOT text's node lines from its edge lines.
func dotBody(dot string) (nodes, edges []string) {
	for _, line := range strings.Split(dot, "\n") {
		switch {
		case !strings.HasPrefix(line, "\t\t"):
		case strings.Contains(line, "[label = "):
			nodes = append(nodes, line)
		default:
			edges = append(edges, line)
		}
	}
	return nodes, edges
}

func TestWriteUnknownFormat(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, awkwardGraph(), "svg"); err == nil || b.Len() != 0 {
		t.Errorf("Write(svg) = %v, wrote %q; want an error and nothing written", err, b.String())
	}
}

// TestMermaidLabelKeepsText checks that the escaped label, with its
// entities decoded as Mermaid decodes them, is the label again (line
// breaks aside), and that nothing that ends or changes a quoted Mermaid
// string is left.
func TestMermaidLabelKeepsText(t *testing.T) {
	decode := strings.NewReplacer("#35;", "#", "#quot;", `"`, "#amp;", "&", "#lt;", "<", "#gt;", ">")
	for _, l := range append(awkwardLabels(), "line\nbreak", "") {
		esc := mermaidLabel(l)
		if strings.ContainsAny(esc, "\"<>&\n\r") {
			t.Errorf("mermaidLabel(%q) = %q: holds a character Mermaid reads", l, esc)
		}
		if got, want := decode.Replace(esc), strings.NewReplacer("\n", " ", "\r", " ").Replace(l); got != want {
			t.Errorf("mermaidLabel(%q) decodes to %q, want %q", l, got, want)
		}
	}
}
