package testfiles

import (
	"context"
	"maps"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plans"
)

// Runner runs test files against the configuration in Dir.
type Runner struct {
	// Dir is the root configuration's directory; run module sources are
	// relative to it.
	Dir string
	// Options are the module loader's (providers, dev overrides); the
	// runner sets BaseDir to Dir.
	Options modulerun.Options
	// Raw are the variable values of the command line and the variable
	// files (-var, -var-file, terraform.tfvars): the weakest, under
	// the file's and the run's variables blocks.
	Raw map[string]eval.RawVariable
	// Funcs evaluate the test files' variables.
	Funcs map[string]function.Function
	// Observer, when set, hears of progress.
	Observer Observer
	// Now is the clock for elapsed times; nil is time.Now.
	Now func() time.Time
	// Parallelism bounds the concurrent operations of each run's plan,
	// apply and teardown (-parallelism, Terraform 1.12); 0 is 10.
	Parallelism int
}

// fileRun is one file's run: its states and the outputs of its runs.
// Runs of a parallel group run at once; mu guards the maps and order.
type fileRun struct {
	r       *Runner
	file    *File
	mu      sync.Mutex
	modules map[string]*loadedModule
	states  map[string]*moduleState
	order   []string
	outputs map[string]cty.Value
}

// moduleState is the state of one module under test, kept between runs.
type moduleState struct {
	mod *modulerun.Module
	doc []byte
	// vars and lastRun are the last apply's, for the teardown.
	vars    map[string]cty.Value
	lastRun string
	// hook serves the overridden objects the last apply made, so the
	// teardown does not ask the real provider to delete them.
	hook hooks
}

// RunFile runs f's runs in order and destroys what they created. Only
// runs whose names are in only (when not nil) run; the others are not
// reported at all.
func (r *Runner) RunFile(ctx context.Context, f *File) *FileResult {
	now := r.clock()
	start := now()
	fr := &fileRun{r: r, file: f, modules: map[string]*loadedModule{}, states: map[string]*moduleState{},
		outputs: map[string]cty.Value{}}
	// A file starts as passed (one without runs passes), as in
	// Terraform and OpenTofu.
	res := &FileResult{File: f, Status: Pass}
	r.observe(func(o Observer) { o.FileStart(f) })
	for i := 0; i < len(f.Runs); {
		end := fr.groupEnd(i)
		group := make([]*RunResult, 0, end-i)
		for _, run := range f.Runs[i:end] {
			group = append(group, &RunResult{Run: run})
		}
		if res.Status == Error {
			for _, rr := range group {
				rr.Status = Skip
			}
		} else {
			fr.runGroup(ctx, group)
		}
		for _, rr := range group {
			res.Runs = append(res.Runs, rr)
			res.Status = res.Status.Merge(rr.Status)
			r.observe(func(o Observer) { o.RunDone(f, rr) })
		}
		i = end
	}
	r.observe(func(o Observer) { o.TeardownStart(f) })
	fr.teardown(ctx, res)
	if res.Diags.HasErrors() {
		res.Status = res.Status.Merge(Error)
	}
	res.Elapsed = now().Sub(start)
	r.observe(func(o Observer) { o.FileDone(res) })
	return res
}

func (r *Runner) clock() func() time.Time {
	if r.Now != nil {
		return r.Now
	}
	return time.Now
}

func (r *Runner) observe(fn func(Observer)) {
	if r.Observer != nil {
		fn(r.Observer)
	}
}

// module loads (once per file) the module a run tests, and returns it
// with the key of the state the run uses: its state_key, else the
// module's source ("" for the root configuration), as in Terraform.
func (fr *fileRun) module(ctx context.Context, run *Run) (*loadedModule, string, diags.Diagnostics) {
	key, stateKey := runKeys(run)
	src := modulerun.Source{Source: "."}
	if run.Module != nil {
		src = modulerun.Source{Source: run.Module.Source, Version: run.Module.Version}
	}
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if lm, ok := fr.modules[key]; ok {
		return lm, stateKey, nil
	}
	opts := fr.r.Options
	opts.BaseDir = fr.r.Dir
	m, ds := modulerun.Load(ctx, src, opts)
	if m == nil || ds.HasErrors() {
		return nil, stateKey, ds
	}
	lm := &loadedModule{mod: m}
	if len(fr.file.Mocks) > 0 {
		var mds diags.Diagnostics
		lm, mds = fr.mocked(ctx, m, src, opts)
		if ds = ds.Append(mds); lm == nil || mds.HasErrors() {
			return nil, stateKey, ds
		}
	}
	lm.own = maps.Clone(lm.mod.Config().ProviderConfigs)
	fr.modules[key] = lm
	return lm, stateKey, ds
}

// run carries out one run block and checks its assertions.
func (fr *fileRun) run(ctx context.Context, run *Run, rr *RunResult) {
	if ds := fr.file.checkMappings(run); ds.HasErrors() {
		rr.Diags, rr.Status = ds, Error
		return
	}
	lm, key, ds := fr.module(ctx, run)
	if rr.Diags = ds; ds.HasErrors() {
		rr.Status = Error
		return
	}
	fr.configureProviders(lm, run)
	mod := lm.mod
	vars, vds := fr.variables(run)
	if rr.Diags = rr.Diags.Append(vds); vds.HasErrors() {
		rr.Status = Error
		return
	}
	fr.mu.Lock()
	st := fr.states[key]
	fr.mu.Unlock()
	if st == nil {
		st = &moduleState{mod: mod}
	}
	inputs := declaredOnly(mod, vars)
	opts, ods := fr.planOptions(run, inputs)
	hook, hds := fr.overrides(ctx, lm, run)
	ods = ods.Append(hds)
	if rr.Diags = rr.Diags.Append(ods); ods.HasErrors() {
		rr.Status = Error
		return
	}
	opts.ResourceProvider, opts.ChildOutput = hook.resource, hook.output
	planned, pds := mod.PlanWith(ctx, opts, st.doc)
	if pds.HasErrors() {
		rr.Diags, rr.Status = fr.expected(mod, run, rr.Diags, pds)
		return
	}
	rr.Diags = rr.Diags.Append(pds)
	rr.Plan = planned.Plan()
	ev := &evaluation{mod: mod, run: run, vars: vars, runs: fr.runOutputs(), plan: planned.Plan()}
	if run.Command == Apply {
		fr.mu.Lock()
		if _, ok := fr.states[key]; !ok {
			fr.states[key] = st
			fr.order = append(fr.order, key)
		}
		fr.mu.Unlock()
		res, ads := mod.Apply(ctx, planned)
		if res != nil {
			st.doc = res.State
		}
		st.mod, st.vars, st.lastRun, st.hook = mod, inputs, run.Name, hook
		if ads.HasErrors() {
			rr.Diags, rr.Status = fr.expected(mod, run, rr.Diags, ads)
			return
		}
		rr.Diags = rr.Diags.Append(ads)
		ev.state = st.doc
	}
	status, ads := ev.assert(ctx, fr.r.Funcs)
	rr.Diags = rr.Diags.Append(ads)
	rr.Status = status
	if len(run.ExpectFailures) > 0 && status == Pass {
		rr.Diags, rr.Status = fr.expected(mod, run, nil, rr.Diags)
	}
	rr.State, rr.Schemas = ev.newState, ev.schemas
	fr.mu.Lock()
	fr.outputs[run.Name] = ev.outputs
	fr.mu.Unlock()
}

// runOutputs is the run object: each finished run's outputs by name.
func (fr *fileRun) runOutputs() map[string]cty.Value {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	out := make(map[string]cty.Value, len(fr.outputs))
	for k, v := range fr.outputs {
		out[k] = v
	}
	return out
}

// variables evaluates the file's and then the run's variables blocks
// (the run's win), seeing run.NAME outputs and the values so far as
// var.NAME.
func (fr *fileRun) variables(run *Run) (map[string]cty.Value, diags.Diagnostics) {
	vals := map[string]cty.Value{}
	var ds diags.Diagnostics
	ctx := &hcl.EvalContext{Functions: fr.r.Funcs, Variables: map[string]cty.Value{"run": cty.ObjectVal(fr.runOutputs())}}
	for _, block := range [][]*Variable{fr.file.Variables, run.Variables} {
		ctx.Variables["var"] = cty.ObjectVal(copyVals(vals))
		for _, v := range block {
			val, hd := v.Expr.Value(ctx)
			ds = ds.Append(hd)
			if !hd.HasErrors() {
				vals[v.Name] = val
			}
		}
	}
	return vals, ds
}

// declaredOnly keeps the values of the variables the module declares:
// a test file's variables blocks may set others (for other runs and
// modules, or for its asserts), which the module does not take.
func declaredOnly(mod *modulerun.Module, vals map[string]cty.Value) map[string]cty.Value {
	decl := mod.Config().Variables
	out := make(map[string]cty.Value, len(vals))
	for k, v := range vals {
		if _, ok := decl[k]; ok {
			out[k] = v
		}
	}
	return out
}

func copyVals(m map[string]cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// planOptions turns a run's command and plan_options into the module's
// plan settings.
func (fr *fileRun) planOptions(run *Run, vars map[string]cty.Value) (modulerun.PlanOptions, diags.Diagnostics) {
	o := modulerun.PlanOptions{Mode: run.PlanMode, Raw: fr.r.Raw, Variables: vars, SkipRefresh: !run.Refresh,
		Parallelism: fr.r.Parallelism}
	var ds diags.Diagnostics
	for _, t := range run.Replace {
		a, ads := parseInstance(t)
		ds = ds.Append(ads)
		if !ads.HasErrors() {
			o.ForceReplace = append(o.ForceReplace, a)
		}
	}
	for _, t := range run.Targets {
		a, ads := parseTarget(t)
		ds = ds.Append(ads)
		if !ads.HasErrors() {
			o.Targets = append(o.Targets, a)
		}
	}
	return o, ds
}

// teardown destroys every state the file's runs created, the last
// created first, with the variables of the last run that applied it.
func (fr *fileRun) teardown(ctx context.Context, res *FileResult) {
	for i := len(fr.order) - 1; i >= 0; i-- {
		st := fr.states[fr.order[i]]
		left, ds := st.destroy(ctx, fr.r.Raw, fr.r.Parallelism)
		res.Diags = res.Diags.Append(ds)
		if len(left) > 0 {
			res.Leftover = append(res.Leftover, Leftover{Run: st.lastRun, Instances: left})
		}
	}
}

// destroy plans and applies the destruction of st and returns the
// instances left in it.
func (st *moduleState) destroy(ctx context.Context, raw map[string]eval.RawVariable, parallelism int) ([]string, diags.Diagnostics) {
	p, ds := st.mod.PlanWith(ctx, modulerun.PlanOptions{Mode: plans.DestroyMode, Raw: raw, Variables: st.vars,
		ResourceProvider: st.hook.resource, ChildOutput: st.hook.output, Parallelism: parallelism}, st.doc)
	if !ds.HasErrors() {
		res, ads := st.mod.Apply(ctx, p)
		ds = ds.Append(ads)
		if res != nil {
			st.doc = res.State
		}
	}
	left, err := instancesIn(st.doc)
	if err != nil {
		ds = ds.Append(diags.Errorf("Failed to read the test state", "%s.", err))
	}
	return left, ds
}
