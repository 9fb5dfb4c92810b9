package command

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/testfiles"
	"github.com/mitchellh/go-wordwrap"
)

// testView prints a test suite's progress: lines for people as
// Terraform 1.7+ prints them, or with -json the UI stream's test_*
// messages.
type testView struct {
	m       *Meta
	verbose bool
	json    bool
}

var _ testfiles.Observer = (*testView)(nil)

func (m *Meta) testView(o testOptions) *testView {
	v := &testView{m: m, verbose: o.verbose, json: o.json}
	if o.json {
		m.startJSONView()
	}
	return v
}

// color paints s for stdout when colour is on.
func (v *testView) color(c, s string) string {
	if !v.m.colorOn(v.m.Stdout) {
		return s
	}
	code := map[string]string{"green": "32", "red": "31", "yellow": "33"}[c]
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (v *testView) status(s testfiles.Status) string {
	switch s {
	case testfiles.Pass:
		return v.color("green", "pass")
	case testfiles.Fail, testfiles.Error:
		return v.color("red", statusWord(s))
	}
	return v.color("yellow", s.String())
}

// statusWord is the word a progress line gives a status: an error is
// "fail" there, as in Terraform and OpenTofu (the JSON status field and
// the summary's count keep the two apart).
func statusWord(s testfiles.Status) string {
	if s == testfiles.Error {
		return "fail"
	}
	return s.String()
}

// diags shows a file's or a run's diagnostics; in the JSON stream each
// carries the file's (and run's) name, as Terraform's do.
func (v *testView) diags(ds diags.Diagnostics, file, run string) {
	if !v.json {
		v.m.showDiags(ds)
		return
	}
	sources := render.NewSourceIndex(v.m.sources)
	for _, d := range ds {
		msg := render.UIDiagnosticMessage(d, sources, v.m.secrets)
		fields := map[string]any{"@testfile": file}
		for k, val := range msg.Fields {
			fields[k] = val
		}
		if run != "" {
			fields["@testrun"] = run
		}
		msg.Fields = fields
		v.m.jsonUI.emit(msg)
	}
}

// abstract announces the files and runs about to run (JSON only).
func (v *testView) abstract(files []*testfiles.File) {
	if !v.json {
		return
	}
	abs := map[string][]string{}
	for _, f := range files {
		runs := []string{}
		for _, r := range f.Runs {
			runs = append(runs, r.Name)
		}
		abs[f.Name] = runs
	}
	v.m.jsonUI.emit(render.UIMessage{Level: "info", Message: "Found " + plural(len(files), "file") + " and " + plural(countRuns(files), "run block"),
		Type: "test_abstract", Fields: map[string]any{"test_abstract": abs}})
}

func countRuns(files []*testfiles.File) int {
	n := 0
	for _, f := range files {
		n += len(f.Runs)
	}
	return n
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func (v *testView) fileMessage(f *testfiles.File, progress, text string, status *testfiles.Status) {
	fields := map[string]any{"path": f.Name, "progress": progress}
	if status != nil {
		fields["status"] = status.String()
	}
	v.m.jsonUI.emit(render.UIMessage{Level: "info", Message: f.Name + "... " + text, Type: "test_file",
		Fields: map[string]any{"test_file": fields, "@testfile": f.Name}})
}

// FileStart implements testfiles.Observer.
func (v *testView) FileStart(f *testfiles.File) {
	if v.json {
		v.fileMessage(f, "starting", "in progress", nil)
		return
	}
	fmt.Fprintf(v.m.Stdout, "%s... in progress\n", f.Name)
}

// RunStart implements testfiles.Observer.
func (v *testView) RunStart(f *testfiles.File, r *testfiles.Run) {
	if v.json {
		v.m.jsonUI.emit(render.UIMessage{Level: "info", Message: fmt.Sprintf("  %q... in progress", r.Name), Type: "test_run",
			Fields: map[string]any{"test_run": map[string]any{"path": f.Name, "run": r.Name, "progress": "starting", "elapsed": 0},
				"@testfile": f.Name, "@testrun": r.Name}})
	}
}

// RunDone implements testfiles.Observer: the run's line, then its
// diagnostics, then (-verbose) its plan or state.
func (v *testView) RunDone(f *testfiles.File, r *testfiles.RunResult) {
	if v.json {
		v.m.jsonUI.emit(render.UIMessage{Level: "info", Message: fmt.Sprintf("  %q... %s", r.Run.Name, statusWord(r.Status)), Type: "test_run",
			Fields: map[string]any{"test_run": map[string]any{"path": f.Name, "run": r.Run.Name, "progress": "complete",
				"status": r.Status.String()},
				"@testfile": f.Name, "@testrun": r.Run.Name}})
		v.diags(r.Diags, f.Name, r.Run.Name)
		return
	}
	fmt.Fprintf(v.m.Stdout, "  run %q... %s\n", r.Run.Name, v.status(r.Status))
	if v.verbose && r.Status != testfiles.Skip {
		v.showRun(r)
	}
	v.m.showDiags(r.Diags)
	// Warnings go to stdout; a blank line keeps them apart from the
	// next progress line, as in Terraform.
	for _, d := range r.Diags {
		if d.Severity == diags.Warning {
			fmt.Fprintln(v.m.Stdout)
			break
		}
	}
}

// showRun prints a run's plan (plan-mode runs) or new state.
func (v *testView) showRun(r *testfiles.RunResult) {
	// Blank lines set the state apart from what is around it, and the
	// plan from what follows, as Terraform prints them.
	switch {
	case r.State != nil:
		fmt.Fprintln(v.m.Stdout)
		_ = render.State(v.m.Stdout, r.State, r.Schemas, v.m.renderOpts())
		fmt.Fprintln(v.m.Stdout)
	case r.Plan != nil && r.Schemas != nil:
		_ = render.Plan(v.m.Stdout, r.Plan, r.Schemas, v.m.renderOpts())
		fmt.Fprintln(v.m.Stdout)
	}
}

// TeardownStart implements testfiles.Observer.
func (v *testView) TeardownStart(f *testfiles.File) {
	if v.json {
		v.fileMessage(f, "teardown", "tearing down", nil)
		return
	}
	fmt.Fprintf(v.m.Stdout, "%s... tearing down\n", f.Name)
}

// errorColumns is the width Terraform wraps its test messages on stderr
// to when stderr is not a terminal.
const errorColumns = 78

// FileDone implements testfiles.Observer: the file's status, what its
// teardown left behind, and its own diagnostics.
func (v *testView) FileDone(res *testfiles.FileResult) {
	if v.json {
		v.fileMessage(res.File, "complete", statusWord(res.Status), &res.Status)
	} else {
		fmt.Fprintf(v.m.Stdout, "%s... %s\n", res.File.Name, v.status(res.Status))
	}
	if len(res.Leftover) > 0 && res.Diags.HasErrors() && !v.json {
		fmt.Fprint(v.m.Stderr, wordwrap.WrapString(fmt.Sprintf("Cairn encountered an error destroying resources created while executing %s/%s.", res.File.Name, res.Leftover[0].Run), errorColumns)+"\n")
	}
	v.diags(res.Diags, res.File.Name, "")
	for _, l := range res.Leftover {
		text := wordwrap.WrapString(fmt.Sprintf("Cairn left the following resources in state after executing %s/%s, and they need to be cleaned up manually:", res.File.Name, l.Run), errorColumns) + "\n"
		for _, addr := range l.Instances {
			text += "  - " + addr + "\n"
		}
		if v.json {
			failed := make([]map[string]string, len(l.Instances))
			for i, addr := range l.Instances {
				failed[i] = map[string]string{"instance": addr}
			}
			v.m.jsonUI.emit(render.UIMessage{Level: "error", Type: "test_cleanup",
				Message: fmt.Sprintf("Cairn left some resources in state after executing %s/%s, they need to be cleaned up manually.", res.File.Name, l.Run),
				Fields: map[string]any{"test_cleanup": map[string]any{"failed_resources": failed},
					"@testfile": res.File.Name, "@testrun": l.Run}})
		} else {
			fmt.Fprint(v.m.Stderr, "\n"+text)
		}
	}
}

// conclusion prints the summary line and returns the suite's status.
func (v *testView) conclusion(results []*testfiles.FileResult) testfiles.Status {
	counts, status := testSummary(results)
	plain := func(_, s string) string { return s }
	if v.json {
		v.m.jsonUI.emit(render.UIMessage{Level: "info", Message: summaryLine(counts, status, plain), Type: "test_summary",
			Fields: map[string]any{"test_summary": map[string]any{"status": status.String(),
				"passed": counts[testfiles.Pass], "failed": counts[testfiles.Fail], "errored": counts[testfiles.Error],
				"skipped": counts[testfiles.Skip]}}})
		return status
	}
	fmt.Fprintln(v.m.Stdout)
	fmt.Fprintln(v.m.Stdout, summaryLine(counts, status, v.color))
	return status
}
