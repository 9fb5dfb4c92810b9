package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/testfiles"
)

// testOptions are "cairn test"'s options.
type testOptions struct {
	filters     stringList
	parallelism int
	testDir     string
	verbose     bool
	json        bool
	junitXML    string
}

// runTest implements "cairn test" as Terraform 1.6+ does: every
// *.tftest.hcl (and OpenTofu's *.tofutest.hcl) in the working directory
// and the test directory, each run block planned or applied in this
// process against a state kept in memory, and destroyed at the end.
// Nothing touches the configuration's backend. Exit 1 when a run fails
// or errors.
func runTest(m *Meta, args []string) int {
	var o testOptions
	fs := newFlagSet("test", m.Stderr)
	m.varOptions(fs)
	fs.Var(&o.filters, "filter", "Run only the given test file (a path such as tests/a.tftest.hcl). May be given more than once.")
	fs.StringVar(&o.testDir, "test-directory", "tests", "The directory, relative to the configuration, that holds test files besides those of the configuration's own directory.")
	fs.BoolVar(&o.verbose, "verbose", false, "Print the plan or the state of each run block as it completes.")
	fs.BoolVar(&o.json, "json", false, "Print machine-readable output in JSON format: the UI stream's test messages.")
	fs.StringVar(&o.junitXML, "junit-xml", "", "Also write a JUnit XML report of the results to the given file.")
	o.parallelism = defaultParallelism
	fs.Var(parallelismFlag{&o.parallelism}, "parallelism", "Limit the number of concurrent operations within each run's plan and apply to `n` (default 10), as Terraform 1.12's test command does.")
	noColorFlag(fs, m)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "The test command takes no arguments; use -filter to choose test files.")
	}
	files, ds := m.loadTestFiles(o)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	raw, vds := m.collectVariables(m.varFlags)
	vds = vds.Append(m.testDirVariables(o.testDir, raw))
	if ds = ds.Append(vds); vds.HasErrors() {
		return m.fail(ds)
	}
	// The CLI configuration's dev_overrides and the schema cache hold
	// for the modules under test as for cairn plan there, as in tofu test.
	cli, cds := m.cliConfig()
	if ds = ds.Append(cds); cds.HasErrors() {
		return m.fail(ds)
	}
	mopts := modulerun.Options{Providers: m.Providers, Now: m.Now, SchemaCacheDir: m.schemaCacheDir()}
	if cli.ProviderInstallation != nil {
		mopts.DevOverrides = cli.ProviderInstallation.DevOverrides
	}
	view := m.testView(o)
	view.abstract(files)
	m.showDiags(ds)
	runner := &testfiles.Runner{
		Dir: m.Dir, Raw: raw, Funcs: m.funcTable(false), Observer: view, Now: m.Now, Parallelism: o.parallelism,
		Options: mopts,
	}
	var results []*testfiles.FileResult
	for _, f := range files {
		results = append(results, runner.RunFile(context.Background(), f))
	}
	status := view.conclusion(results)
	if o.junitXML != "" {
		if err := writeJUnit(o.junitXML, m.Dir, results); err != nil {
			return m.errorf("Failed to write the JUnit XML report", "%s.", err)
		}
	}
	if status > testfiles.Pass {
		return 1
	}
	return 0
}

// loadTestFiles finds and parses the test files (*.tftest.hcl,
// *.tftest.json): those of the configuration's directory, then those of
// the test directory, in name order; a .tofutest.hcl (.tofutest.json)
// file stands in for the .tftest one of the same name, as in OpenTofu. -filter keeps only the files named.
func (m *Meta) loadTestFiles(o testOptions) ([]*testfiles.File, diags.Diagnostics) {
	var names []string
	for _, dir := range []string{".", o.testDir} {
		names = append(names, testFileNames(m.Dir, dir)...)
	}
	if len(o.filters) > 0 {
		keep := map[string]bool{}
		for _, f := range o.filters {
			keep[filepath.ToSlash(filepath.Clean(f))] = true
		}
		var kept []string
		for _, n := range names {
			if keep[n] {
				kept = append(kept, n)
			}
		}
		names = kept
	}
	_, cds := m.loadConfig()
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	ds := cds
	var files []*testfiles.File
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join(m.Dir, n))
		if err != nil {
			ds = ds.Append(diags.Errorf("Failed to read test file", "%s.", err))
			continue
		}
		m.sources[n] = src
		f, fds := testfiles.Parse(n, src)
		ds = ds.Append(fds)
		if f != nil {
			mocks, mds := f.LoadMockSources(m.Dir)
			for name, src := range mocks {
				m.sources[name] = src
			}
			ds = ds.Append(mds)
			files = append(files, f)
		}
	}
	return files, ds
}

// testFileNames lists the test files of dir (relative to root), as
// slash paths relative to root.
func testFileNames(root, dir string) []string {
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil
	}
	byBase := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			continue
		}
		for _, ext := range []string{".hcl", ".json"} {
			switch {
			case strings.HasSuffix(name, ".tofutest"+ext):
				byBase[strings.TrimSuffix(name, ".tofutest"+ext)+ext] = name
			case strings.HasSuffix(name, ".tftest"+ext):
				base := strings.TrimSuffix(name, ".tftest"+ext) + ext
				if _, ok := byBase[base]; !ok {
					byBase[base] = name
				}
			}
		}
	}
	var out []string
	for _, name := range byBase {
		p := name
		if dir != "." {
			p = filepath.ToSlash(filepath.Join(dir, name))
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// testSummary counts the runs of results by status and returns the
// suite's status: the worst file's.
func testSummary(results []*testfiles.FileResult) (map[testfiles.Status]int, testfiles.Status) {
	counts := map[testfiles.Status]int{}
	// The suite starts as passed, so no test files at all is "Success!
	// 0 passed, 0 failed.", as Terraform and OpenTofu print.
	status := testfiles.Pass
	for _, f := range results {
		status = status.Merge(f.Status)
		for _, r := range f.Runs {
			counts[r.Status]++
		}
	}
	return counts, status
}

// summaryLine is Terraform's last line: "Success! 2 passed, 0 failed."
func summaryLine(counts map[testfiles.Status]int, status testfiles.Status, color func(string, string) string) string {
	var b strings.Builder
	if status <= testfiles.Skip {
		b.WriteString("Executed 0 tests")
	} else {
		if status == testfiles.Pass {
			b.WriteString(color("green", "Success!"))
		} else {
			b.WriteString(color("red", "Failure!"))
		}
		fmt.Fprintf(&b, " %d passed, %d failed", counts[testfiles.Pass], counts[testfiles.Fail]+counts[testfiles.Error])
	}
	if n := counts[testfiles.Skip]; n > 0 {
		fmt.Fprintf(&b, ", %d skipped.", n)
	} else {
		b.WriteString(".")
	}
	return b.String()
}

// testDirVariables adds the values of the test directory's variable
// files (terraform.tfvars, terraform.tfvars.json, then *.auto.tfvars and
// *.auto.tfvars.json in name order) to raw. As in OpenTofu 1.12 they win
// over the command line's and the configuration directory's.
func (m *Meta) testDirVariables(testDir string, raw map[string]eval.RawVariable) diags.Diagnostics {
	dir := filepath.Join(m.Dir, testDir)
	var files, auto []string
	for _, f := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err == nil && !st.IsDir() {
			files = append(files, f)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && (strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json")) {
			auto = append(auto, n)
		}
	}
	sort.Strings(auto)
	var ds diags.Diagnostics
	for _, f := range append(files, auto...) {
		ds = ds.Append(m.loadVarFile(filepath.Join(dir, f), filepath.ToSlash(filepath.Join(testDir, f)), raw))
	}
	return ds
}
