package testfiles

import (
	"context"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"golang.org/x/sync/errgroup"
)

// maxParallelRuns bounds the runs of a group that run at once, as
// Terraform's test command bounds its own.
const maxParallelRuns = 10

// runKeys returns the key of the module a run tests ("" for the root
// configuration, else its source and version) and of the state it uses
// (its state_key when set, else the module's), as Terraform keys them.
func runKeys(run *Run) (module, state string) {
	if run.Module != nil {
		module = run.Module.Source + "@" + run.Module.Version
	}
	state = module
	if run.StateKey != "" {
		state = "state_key:" + run.StateKey
	}
	return module, state
}

// groupEnd returns the end (exclusive) of the group of runs starting at
// i that run at once (Terraform 1.12's parallel): consecutive runs with
// parallel set, each with a state of its own among them, none referring
// to another's outputs (run.NAME), and runs of one module giving it the
// same providers. A run without parallel is a group of its own: it waits
// for every run before it and every run after it waits for it. What the
// runs see is the same as running them in order; only their time is not.
func (fr *fileRun) groupEnd(i int) int {
	runs := fr.file.Runs
	if !runs[i].Parallel {
		return i + 1
	}
	states := map[string]bool{}
	names := map[string]bool{}
	providers := map[string]string{}
	j := i
	for ; j < len(runs); j++ {
		r := runs[j]
		module, state := runKeys(r)
		sig := mapSignature(fr.providerMap(r))
		if prev, ok := providers[module]; (ok && prev != sig) || !r.Parallel || states[state] || fr.refersToRuns(r, names) {
			break
		}
		states[state], names[r.Name], providers[module] = true, true, sig
	}
	if j == i {
		return i + 1
	}
	return j
}

// refersToRuns reports whether r's variables (its own and the file's,
// which are evaluated for each run) or asserts refer to a run named in
// names.
func (fr *fileRun) refersToRuns(r *Run, names map[string]bool) bool {
	var exprs []interface{ Variables() []hcl.Traversal }
	for _, v := range append(append([]*Variable{}, fr.file.Variables...), r.Variables...) {
		exprs = append(exprs, v.Expr)
	}
	for _, a := range r.Asserts {
		exprs = append(exprs, a.Condition, a.ErrorMessage)
	}
	for _, e := range exprs {
		for _, t := range e.Variables() {
			if t.RootName() != "run" || len(t) < 2 {
				continue
			}
			if name := traversalString(t[:2]); names[strings.TrimPrefix(name, "run.")] {
				return true
			}
		}
	}
	return false
}

// runGroup runs a group's runs, at once when there are several; the
// observer hears of them in file order, from this goroutine.
func (fr *fileRun) runGroup(ctx context.Context, group []*RunResult) {
	now := fr.r.clock()
	for _, rr := range group {
		fr.r.observe(func(o Observer) { o.RunStart(fr.file, rr.Run) })
	}
	one := func(rr *RunResult) {
		defer func() {
			if p := recover(); p != nil {
				rr.Status = Error
				rr.Diags = rr.Diags.Append(diags.Errorf("Internal error running a test", "The run %q stopped on an internal error: %v. This is a bug in Cairn.", rr.Run.Name, p))
			}
		}()
		t0 := now()
		fr.run(ctx, rr.Run, rr)
		rr.Elapsed = now().Sub(t0)
	}
	if len(group) == 1 {
		one(group[0])
		return
	}
	fr.mu.Lock()
	before := len(fr.order)
	fr.mu.Unlock()
	var g errgroup.Group
	g.SetLimit(maxParallelRuns)
	for _, rr := range group {
		g.Go(func() error {
			one(rr)
			return nil
		})
	}
	_ = g.Wait()
	fr.orderStates(group, before)
}

// orderStates puts the states a group's runs created in the order of
// the runs, not of their finishing, so the teardown order is the file's.
func (fr *fileRun) orderStates(group []*RunResult, from int) {
	pos := map[string]int{}
	for i, rr := range group {
		if _, state := runKeys(rr.Run); !hasKey(pos, state) {
			pos[state] = i
		}
	}
	added := fr.order[from:]
	sort.SliceStable(added, func(a, b int) bool { return pos[added[a]] < pos[added[b]] })
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// mapSignature is a provider map as a comparable string.
func mapSignature(m map[string]ProviderRef) string {
	parts := make([]string, 0, len(m))
	for k, v := range m {
		parts = append(parts, k+"="+v.String())
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
