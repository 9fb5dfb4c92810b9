package explorer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/testbrowser"
	"github.com/chromedp/chromedp"
)

// bigScenario plans 10,000 creates: 100 instances of a module, each with
// a terraform_data, 50 test_things that refer to it and 49 terraform_data
// that refer to those, so the graph has modules, counts and chains.
func bigScenario() scenario {
	return scenario{steps: []map[string]string{{
		"main.tf": `
module "m" {
  source = "./modules/m"
  count  = 100
  n      = count.index
}
output "first" { value = module.m[0].ids }
`,
		"modules/m/main.tf": `
variable "n" { type = number }
resource "terraform_data" "cfg" { input = "cfg-${var.n}" }
resource "test_thing" "r" {
  count = 50
  name  = "r-${var.n}-${count.index}-${terraform_data.cfg.id}"
}
resource "terraform_data" "d" {
  count = 49
  input = { name = test_thing.r[count.index].name, n = count.index, tags = ["a", "b"] }
}
output "ids" { value = terraform_data.d[*].id }
`}}}
}

// maxPageBytes is the most a page of 10,000 changes may weigh.
const maxPageBytes = 5 << 20

// BenchmarkPlanPage10k builds the page of a 10,000-change plan, as
// `cairn show -html` does after reading the plan file: diffs, model,
// graph layout, template. It reports the page's size.
func BenchmarkPlanPage10k(b *testing.B) {
	pl := bigScenario().run(b)
	var size int
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		var buf bytes.Buffer
		if err := WritePlan(context.Background(), &buf, pl.plan, pl.schemas, Options{}); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	// On the shared 2-core machine wall time swings with other load;
	// CPU time (as enginetest's benchmarks report it) stays comparable.
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(size), "page-bytes")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestBigPlanPage renders the 10,000-change plan, holds the page to the
// size bound, and opens it in the browser, reporting (not asserting) how
// long it takes to load and lay out, and what clicking a folded node
// shows.
func TestBigPlanPage(t *testing.T) {
	if testing.Short() {
		t.Skip("plans 10,000 changes")
	}
	pl := bigScenario().run(t)
	html := writePlanPage(t, pl)
	m := pageModel(t, html)
	if len(m.Changes) != 10000 {
		t.Fatalf("%d changes on the page, want 10000", len(m.Changes))
	}
	if len(html) >= maxPageBytes {
		t.Errorf("the page of 10,000 changes is %d bytes, over %d", len(html), maxPageBytes)
	}
	t.Logf("page: %d bytes, graph folded: %v", len(html), m.Graph != nil && m.Graph.Folded)
	path := filepath.Join(t.TempDir(), "big.html")
	if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	checkBigPageInBrowser(t, path, m)
}

// checkBigPageInBrowser opens the page of 10,000 changes, reports how
// long it took, and uses its search and a folded node.
func checkBigPageInBrowser(t *testing.T, path string, m *Model) {
	t.Helper()
	b := testbrowser.New(t)
	p := b.Open(t, path)
	tm := p.Timing(t)
	t.Logf("browser: DOMContentLoaded %.0f ms, load %.0f ms, first contentful paint %.0f ms", tm.DOMContentLoaded, tm.Load, tm.FirstContentfulPaint)
	var marks map[string]float64
	p.Eval(t, `Object.fromEntries(performance.getEntriesByType("mark").filter(m => m.name.startsWith("cairn:")).map(m => [m.name, Math.round(m.startTime)]))`, &marks)
	t.Logf("script steps (ms from navigation start): %v", marks)
	var match string
	p.Eval(t, `document.getElementById("shown").textContent`, &match)
	if want := fmt.Sprintf("%d match", len(m.Changes)+len(m.Outputs)); match != want {
		t.Errorf("the page says %q, want %q", match, want)
	}
	// Only the first entries are in the list until it is scrolled; a
	// search finds any of them.
	p.Run(t, chromedp.SendKeys(chromedp.CSS("#search"), "module.m[99].test_thing.r[49]"))
	var found []string
	p.Eval(t, visibleJS, &found)
	if want := []string{"module.m[99].test_thing.r[49]"}; !slices.Equal(found, want) {
		t.Errorf("search found %q, want %q", found, want)
	}
	// A folded node lists what it stands for; a member opens its change.
	folded, most := "", 0
	for id, members := range m.Graph.Members {
		if len(members) > most || len(members) == most && id < folded {
			folded, most = id, len(members)
		}
	}
	p.Click(t, `#graph g.node[data-node="`+folded+`"]`)
	var listed int
	p.Eval(t, `document.querySelectorAll("#members li").length`, &listed)
	if listed != most {
		t.Errorf("the folded node %s lists %d members, want %d", folded, listed, most)
	}
	p.Click(t, "#members li:last-child a")
	var open []string
	p.Eval(t, `Array.from(document.querySelectorAll("#changes details[open] .addr")).map(e => e.textContent)`, &open)
	if len(open) != 1 {
		t.Errorf("opening the last member opened %q", open)
	}
	t.Logf("folded node %s: %d members; the last opens %q", folded, most, open)
	// The whole list is too tall for one screenshot: a search narrows it.
	p.Eval(t, `(() => { const s = document.getElementById("search"); s.value = "module.m[99].test_thing.r[4"; s.dispatchEvent(new Event("input")); return true })()`, nil)
	t.Logf("screenshot: %s", p.Screenshot(t, "big"))
}
