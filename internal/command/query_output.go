package command

import (
	"fmt"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/render"
)

// queryOutput is how cairn query reports the lists that run in parallel
// (a planning.QueryReporter): each list's lines (or JSON messages) come
// out in list order, whatever order the lists finished in, through an
// installOutput, whose progress line shows on a terminal how many lists
// are done and how many objects were found; never with -json or when
// stdout is not a terminal. It keeps the results for
// -generate-config-out, by list.
type queryOutput struct {
	m        *Meta
	lists    []*configs.List
	fromFile int // lists[:fromFile] are the query files' blocks, the rest -all's
	json     bool
	generate bool
	out      *installOutput
	// results are the objects found (kept with -generate-config-out
	// only) and counts how many, by list; each list's entries are written
	// only by the goroutine listing it.
	results [][]planning.QueryResult
	counts  []int
	started []bool // lists an interrupt did not keep from starting

	starts [][]byte // -json: each list's list_start message

	mu           sync.Mutex
	done, found  int
	lastReported int
}

var _ planning.QueryReporter = (*queryOutput)(nil)

func (m *Meta) newQueryOutput(q *planning.QueryRun, fromFile int, asJSON, generate bool) *queryOutput {
	lists := q.Lists()
	o := &queryOutput{m: m, lists: lists, fromFile: fromFile, json: asJSON, generate: generate, results: make([][]planning.QueryResult, len(lists)), counts: make([]int, len(lists)), started: make([]bool, len(lists))}
	o.out = newInstallOutput(m.Stdout, len(lists), !asJSON && m.isTerminal(m.Stdout))
	if asJSON {
		// list_start carries the evaluated config block, known now.
		o.starts = make([][]byte, len(lists))
		for i, l := range lists {
			o.starts[i] = m.jsonUI.encode(render.UIListStart(listAddr(l), l.Type, q.InputConfig(i)))
		}
	}
	return o
}

// ListStarted implements planning.QueryReporter.
func (o *queryOutput) ListStarted(i int) {
	o.started[i] = true
	if o.json {
		o.out.printf(i, "%s", o.starts[i])
	}
}

// Found implements planning.QueryReporter.
func (o *queryOutput) Found(i int, r planning.QueryResult) {
	n := o.counts[i]
	o.counts[i]++
	if o.generate && !o.json {
		o.results[i] = append(o.results[i], r)
	}
	if o.json {
		o.out.printf(i, "%s", o.m.jsonUI.encode(jsonFound(r, n, o.generate)))
	} else {
		o.out.printf(i, "%s", queryLine(r))
	}
	o.progress(0, 1)
}

// ListDone implements planning.QueryReporter.
func (o *queryOutput) ListDone(i int, total int, ds diags.Diagnostics) {
	if o.json && o.started[i] && !ds.HasErrors() {
		l := o.lists[i]
		o.out.printf(i, "%s", o.m.jsonUI.encode(render.UIListComplete(listAddr(l), l.Type, total)))
	}
	o.out.finish(i)
	o.progress(1, 0)
}

// progress counts a list done or an object found and rewrites the
// progress line: at every list done, and every 100 objects.
func (o *queryOutput) progress(lists, objects int) {
	o.mu.Lock()
	o.done += lists
	o.found += objects
	if lists == 0 && o.found-o.lastReported < 100 {
		o.mu.Unlock()
		return
	}
	o.lastReported = o.found
	text := fmt.Sprintf("Querying... %d of %d lists done, %d found", o.done, len(o.lists), o.found)
	o.mu.Unlock()
	o.out.setStatus(text)
}

// close clears the progress line once every list is done.
func (o *queryOutput) close() { o.out.setStatus("") }

// summary ends the human output as Terraform's does: a blank line after
// the results, and a warning naming the list blocks of the query files
// that found nothing (those -all added are not named: most types of an
// account are empty).
func (o *queryOutput) summary() {
	var empty []string
	any := false
	for i, l := range o.lists {
		if o.counts[i] > 0 {
			any = true
		} else if i < o.fromFile {
			empty = append(empty, listAddr(l))
		}
	}
	if any {
		fmt.Fprintln(o.m.Stdout)
	}
	if len(empty) > 0 {
		fmt.Fprintf(o.m.Stdout, "Warning: list block(s) [%s] returned 0 results.\n\n", strings.Join(empty, ", "))
	}
}
