package explorer

import (
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/render"
)

// Model is what the page shows, as the JSON its script reads. Tests
// decode it from the page and compare it with golden files, so its
// fields are the page's contract. Modules and providers repeat for every
// change and are kept in tables; entries travel in a compact form
// (wire.go).
type Model struct {
	// Kind is "plan" or "state".
	Kind string `json:"kind"`
	// Mode is the plan's mode: "normal", "destroy" or "refresh-only".
	Mode string `json:"mode,omitempty"`
	// Summary counts the changes by what they do; SummaryLine is the
	// "Plan: ..." line of the text.
	Summary     *Summary `json:"summary,omitempty"`
	SummaryLine string   `json:"summaryLine,omitempty"`
	// Modules and Providers are tables the entries refer to by index.
	Modules   []string `json:"modules"`
	Providers []string `json:"providers"`
	// Changes are the resource changes (plan) or objects (state); Drift
	// the objects changed outside of Cairn; Outputs the output changes
	// (plan) or values (state).
	Changes []Entry `json:"changes"`
	Drift   []Entry `json:"drift,omitempty"`
	Outputs []Entry `json:"outputs,omitempty"`
	// Graph ties the drawn graph's nodes to entries.
	Graph *Graph `json:"graph,omitempty"`
	// Problems are objects that could not be shown (a state the
	// provider's schema no longer decodes).
	Problems []string `json:"problems,omitempty"`
}

// Summary counts a plan's changes. A change that imports or moves and
// also does something counts twice, as in Terraform's summary line.
type Summary struct {
	Add     int `json:"add"`
	Change  int `json:"change"`
	Replace int `json:"replace"`
	Destroy int `json:"destroy"`
	Read    int `json:"read"`
	Import  int `json:"import"`
	Move    int `json:"move"`
	Forget  int `json:"forget"`
}

// Entry is one change, drifted object, output or state object.
type Entry struct {
	Addr string `json:"addr"`
	// Module and Provider index Model.Modules and Model.Providers; -1
	// for an output.
	Module   int    `json:"module"`
	Provider int    `json:"provider"`
	Type     string `json:"type,omitempty"`
	// Action is what the change does, named as the summary names it:
	// add, change, replace, destroy, read, forget, or none (a change
	// that only imports or moves, a state object).
	Action string `json:"action"`
	// Tags are the summary's other names the entry counts under: import,
	// move; and tainted or deposed for a state object.
	Tags []string `json:"tags,omitempty"`
	// Reason says why the action was chosen (Terraform's JSON name);
	// Replace lists the attributes that force a replacement.
	Reason    string   `json:"reason,omitempty"`
	Replace   []string `json:"replace,omitempty"`
	MovedFrom string   `json:"movedFrom,omitempty"`
	ImportID  string   `json:"importId,omitempty"`
	Deposed   string   `json:"deposed,omitempty"`
	// Deps are the resources a state object depends on.
	Deps []string `json:"deps,omitempty"`
	// Text is the block as the text prints it; Kinds has one digit per
	// line of it, the line's render.LineKind.
	Text  string `json:"text"`
	Kinds string `json:"kinds"`
}

// Graph ties the drawn graph to the page: which entry each node opens,
// and what a folded node stands for.
type Graph struct {
	// Entries maps a node id to the index of its entry in
	// Model.Changes; nodes without an entry (providers, outputs, no-op
	// checks) are not in it.
	Entries map[string]int `json:"entries"`
	// Folded is true when nodes were folded into groups; Members then
	// lists each folded node's members, and Labels names those that have
	// no entry.
	Folded  bool                `json:"folded,omitempty"`
	Members map[string][]string `json:"members,omitempty"`
	Labels  map[string]string   `json:"labels,omitempty"`
}

// setLines fills Text and Kinds from a block's lines.
func (e *Entry) setLines(lines []render.Line) {
	var text strings.Builder
	kinds := make([]byte, len(lines))
	for i, l := range lines {
		if i > 0 {
			text.WriteByte('\n')
		}
		text.WriteString(l.Text)
		kinds[i] = '0' + byte(l.Kind)
	}
	e.Text, e.Kinds = text.String(), string(kinds)
}

// tables interns the module and provider names entries refer to.
type tables struct {
	modules, providers []string
	moduleIx, provIx   map[string]int
}

func newTables() *tables {
	return &tables{moduleIx: map[string]int{}, provIx: map[string]int{}}
}

func (t *tables) module(m addrs.ModuleInstance) int {
	return intern(&t.modules, t.moduleIx, m.String())
}

func (t *tables) provider(p addrs.AbsProviderConfig) int {
	return intern(&t.providers, t.provIx, p.String())
}

func intern(list *[]string, ix map[string]int, s string) int {
	if i, ok := ix[s]; ok {
		return i
	}
	ix[s] = len(*list)
	*list = append(*list, s)
	return len(*list) - 1
}

// typeName is the resource type as filters show it: data sources with
// their "data." prefix, so a type read and managed is two choices.
func typeName(r addrs.Resource) string {
	if r.Mode == addrs.DataResourceMode {
		return "data." + r.Type
	}
	return r.Type
}
