package explorer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/testbrowser"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestPlanPagesInBrowser opens the page of every scenario in headless
// Chromium (which fails the test on any network request or script
// error) and checks what people see and do: the summary, a filter, the
// search, a graph node's highlight of exactly what it depends on and
// what depends on it (computed here from the plan's own graph), the
// change it opens, and no secret in the source even with every change
// open. A screenshot of each is kept (testbrowser.Page.Screenshot).
func TestPlanPagesInBrowser(t *testing.T) {
	b := testbrowser.New(t)
	for name, sc := range scenarios() {
		t.Run(name, func(t *testing.T) {
			pl := sc.run(t)
			html := writePlanPage(t, pl)
			m := pageModel(t, html)
			path := filepath.Join(t.TempDir(), name+".html")
			if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
				t.Fatal(err)
			}
			p := b.Open(t, path)
			checkDOMSummary(t, p, m)
			checkActionFilter(t, p, m)
			checkSearch(t, p, m)
			checkGraphClicks(t, p, pl.plan, m)
			p.Click(t, "#reset-filters")
			p.Click(t, "#expand-all")
			checkDiffText(t, p, m)
			var source string
			p.Eval(t, `document.documentElement.outerHTML`, &source)
			checkSelfContained(t, source, sc.secrets)
			t.Logf("screenshot: %s", p.Screenshot(t, name))
		})
	}
}

// checkDiffText compares the text of every open change, line by line as
// the page shows it, with the block `cairn show` prints.
func checkDiffText(t *testing.T, p *testbrowser.Page, m *Model) {
	t.Helper()
	var got []string
	p.Eval(t, `Array.from(document.querySelectorAll("#changes details[open] pre.diff")).map(pre => Array.from(pre.children).map(l => l.textContent).join("\n"))`, &got)
	var want []string
	for _, e := range m.Changes {
		want = append(want, e.Text)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the changes' text on the page (-cairn show +page):\n%s", diff)
	}
}

// visibleJS lists the addresses of the entries shown in a section.
const visibleJS = `Array.from(document.querySelectorAll("#changes details:not([hidden]) .addr")).map(e => e.textContent)`

func checkDOMSummary(t *testing.T, p *testbrowser.Page, m *Model) {
	t.Helper()
	var got map[string]int
	p.Eval(t, `Object.fromEntries(Array.from(document.querySelectorAll(".summary b")).map(b => [b.id.slice(6), +b.textContent]))`, &got)
	want := map[string]int{"add": m.Summary.Add, "change": m.Summary.Change, "replace": m.Summary.Replace, "destroy": m.Summary.Destroy,
		"read": m.Summary.Read, "import": m.Summary.Import, "move": m.Summary.Move, "forget": m.Summary.Forget}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary on the page (-model +page):\n%s", diff)
	}
	var shown []string
	p.Eval(t, visibleJS, &shown)
	if len(shown) != len(m.Changes) {
		t.Errorf("%d changes shown, the model has %d", len(shown), len(m.Changes))
	}
}

// checkActionFilter clicks the summary's count of the most frequent
// action, which shows only those changes, then resets.
func checkActionFilter(t *testing.T, p *testbrowser.Page, m *Model) {
	t.Helper()
	counts := map[string]int{}
	for _, e := range m.Changes {
		counts[e.Action]++
		for _, tag := range e.Tags {
			counts[tag]++
		}
	}
	action, most := "", 0
	for a, n := range counts {
		if a != "none" && (n > most || n == most && a < action) {
			action, most = a, n
		}
	}
	if action == "" {
		return
	}
	p.Click(t, `.summary button[data-action="`+action+`"]`)
	var want []string
	for _, e := range m.Changes {
		if e.Action == action || slices.Contains(e.Tags, action) {
			want = append(want, e.Addr)
		}
	}
	var got []string
	p.Eval(t, visibleJS, &got)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("only %q shown (-want +got):\n%s", action, diff)
	}
	p.Click(t, "#reset-filters")
}

// checkSearch types the last change's resource name and compares what
// is shown with the entries whose address or text holds it.
func checkSearch(t *testing.T, p *testbrowser.Page, m *Model) {
	t.Helper()
	if len(m.Changes) == 0 {
		return
	}
	addr := m.Changes[len(m.Changes)-1].Addr
	q := addr[strings.LastIndex(addr, ".")+1:]
	p.Run(t, chromedp.SendKeys(chromedp.CSS("#search"), strings.ToUpper(q)))
	var want []string
	for _, e := range m.Changes {
		if strings.Contains(strings.ToLower(e.Addr+"\n"+e.Text+"\n"+e.MovedFrom+"\n"+e.ImportID), strings.ToLower(q)) {
			want = append(want, e.Addr)
		}
	}
	var got []string
	p.Eval(t, visibleJS, &got)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("search %q (-want +got):\n%s", q, diff)
	}
	p.Click(t, "#reset-filters")
}

// highlight is what the page marks after a node is clicked.
type highlight struct {
	Selected []string `json:"selected"`
	Deps     []string `json:"dep"`
	Rdeps    []string `json:"rdep"`
	Open     []string `json:"open"`
}

const highlightJS = `(() => {
	const ids = c => Array.from(document.querySelectorAll("#graph g.node." + c)).map(n => n.dataset.node).sort();
	return {selected: ids("selected"), dep: ids("dep"), rdep: ids("rdep"),
		open: Array.from(document.querySelectorAll("#changes details[open] .addr")).map(e => e.textContent)};
})()`

// checkGraphClicks clicks every drawn node with a change and compares
// the highlight with the transitive dependencies and dependents of that
// node in the plan's graph, restricted to the nodes drawn.
func checkGraphClicks(t *testing.T, p *testbrowser.Page, plan *plans.Plan, m *Model) {
	t.Helper()
	var drawnIDs []string
	p.Eval(t, `Array.from(document.querySelectorAll("#graph g.node")).map(n => n.dataset.node)`, &drawnIDs)
	if m.Graph == nil || len(drawnIDs) == 0 {
		t.Fatal("the page has no graph")
	}
	onPage := map[int]bool{}
	for _, id := range drawnIDs {
		i, err := strconv.Atoi(strings.TrimPrefix(id, "n"))
		if err != nil {
			t.Fatalf("node id %q", id)
		}
		onPage[i] = true
	}
	for id, entry := range m.Graph.Entries {
		i, _ := strconv.Atoi(strings.TrimPrefix(id, "n"))
		p.Click(t, "#graph #node-"+id)
		var got highlight
		p.Eval(t, highlightJS, &got)
		want := highlight{
			Selected: []string{id},
			Deps:     reachable(plan.Graph, i, false, onPage),
			Rdeps:    reachable(plan.Graph, i, true, onPage),
			Open:     []string{m.Changes[entry].Addr},
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("after clicking %s (%s) (-want +got):\n%s", id, plan.NodeName(i), diff)
		}
		p.Click(t, "#collapse-all")
	}
	p.Click(t, "#clear-selection")
}

// reachable returns the ids of the drawn nodes reachable from node i of
// g along dependencies (or, with reverse, along dependents), sorted.
func reachable(g *plans.Graph, i int, reverse bool, drawn map[int]bool) []string {
	next := make([][]int, len(g.Nodes))
	for n, node := range g.Nodes {
		for _, d := range node.Deps {
			if reverse {
				next[d] = append(next[d], n)
			} else {
				next[n] = append(next[n], d)
			}
		}
	}
	seen := map[int]bool{i: true}
	stack := []int{i}
	var out []string
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range next[n] {
			if seen[d] {
				continue
			}
			seen[d] = true
			stack = append(stack, d)
			if drawn[d] {
				out = append(out, nodeID(d))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestStatePagesInBrowser opens the state page of the scenarios that
// leave modules, dependencies and secrets behind: objects are grouped by
// module, a dependency link opens the object it names, a graph node opens
// its resource, and no secret is in the source with everything open.
func TestStatePagesInBrowser(t *testing.T) {
	b := testbrowser.New(t)
	for _, name := range []string{"create", "sensitive"} {
		sc := scenarios()[name]
		t.Run(name, func(t *testing.T) {
			s, schemas := sc.applied(t)
			var buf bytes.Buffer
			if err := WriteState(context.Background(), &buf, s, schemas, Options{}); err != nil {
				t.Fatal(err)
			}
			m := pageModel(t, buf.String())
			path := filepath.Join(t.TempDir(), name+".html")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			p := b.Open(t, path)
			var heads []string
			p.Eval(t, `Array.from(document.querySelectorAll("#changes .module-head")).map(h => h.textContent)`, &heads)
			var want []string
			for _, e := range m.Changes {
				if name := moduleLabel(m, e); len(want) == 0 || want[len(want)-1] != name {
					want = append(want, name)
				}
			}
			if diff := cmp.Diff(want, heads); diff != "" {
				t.Errorf("module headings (-want +got):\n%s", diff)
			}
			checkDependencyLink(t, p, m)
			for id, entry := range m.Graph.Entries {
				p.Click(t, "#graph #node-"+id)
				var open []string
				p.Eval(t, `Array.from(document.querySelectorAll("#changes details[open] .addr")).map(e => e.textContent)`, &open)
				if !slices.Contains(open, m.Changes[entry].Addr) {
					t.Errorf("clicking %s opened %q, want %s among them", id, open, m.Changes[entry].Addr)
				}
			}
			p.Click(t, "#expand-all")
			var source string
			p.Eval(t, `document.documentElement.outerHTML`, &source)
			checkSelfContained(t, source, sc.secrets)
			t.Logf("screenshot: %s", p.Screenshot(t, "state_"+name))
		})
	}
}

func moduleLabel(m *Model, e Entry) string {
	if name := m.Modules[e.Module]; name != "" {
		return name
	}
	return "(root module)"
}

// checkDependencyLink opens the first object with dependencies and
// follows its first link.
func checkDependencyLink(t *testing.T, p *testbrowser.Page, m *Model) {
	t.Helper()
	for i, e := range m.Changes {
		if len(e.Deps) == 0 {
			continue
		}
		p.Click(t, "#changes-"+strconv.Itoa(i)+" > summary")
		p.Click(t, "#changes-"+strconv.Itoa(i)+" .meta a")
		var open []string
		p.Eval(t, `Array.from(document.querySelectorAll("#changes details[open] .addr")).map(e => e.textContent)`, &open)
		if !slices.ContainsFunc(open, func(a string) bool { return a == e.Deps[0] || strings.HasPrefix(a, e.Deps[0]+"[") }) {
			t.Errorf("following %s's dependency %s opened %q", e.Addr, e.Deps[0], open)
		}
		p.Click(t, "#collapse-all")
		return
	}
}

// TestLongAddressesStayInTheirBox opens a page whose change has a
// for_each key of 200 characters: its address wraps inside its entry's
// summary instead of running past the box and the page's edge.
func TestLongAddressesStayInTheirBox(t *testing.T) {
	addr := `terraform_data.k["` + strings.Repeat("y", 200) + `"]`
	e := Entry{Addr: addr, Module: -1, Provider: -1, Action: "add"}
	e.setLines([]render.Line{{Text: "# " + addr + " will be created"}})
	pg := &page{Title: "long", Model: &Model{Kind: "plan", Summary: &Summary{Add: 1}, Changes: []Entry{e}}}
	var buf bytes.Buffer
	if err := pg.write(&buf); err != nil {
		t.Fatal(err)
	}
	p := testbrowser.New(t).OpenHTML(t, buf.String())
	var overflow []int
	p.Eval(t, `Array.from(document.querySelectorAll("#changes summary")).map(s => s.scrollWidth - s.clientWidth)`, &overflow)
	if len(overflow) != 1 || overflow[0] > 0 {
		t.Errorf("the summary of %s is wider than its box by %v pixels", addr, overflow)
	}
}
