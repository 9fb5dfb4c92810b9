package enginetest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// runSteps runs every step of sc in dir with run and returns the records
// to compare. An error means the scenario itself is broken (a file
// cannot be written, Terraform fails where the scenario expects success
// or succeeds where it expects failure); Cairn's failures are records,
// shown by the comparison.
func runSteps(sc *compareScenario, dir string, run tool, reference bool, initArgs []string) ([]stepRecord, error) {
	n := newNormaliser()
	n.random = sc.random
	n.checkStatusOnly = sc.checkStatusOnly
	var records []stepRecord
	for i, st := range sc.steps {
		if err := writeStepFiles(dir, st.files); err != nil {
			return nil, err
		}
		if i == 0 || needsInit(st.files) {
			// A step whose commands must all fail may have a configuration
			// init rejects too (a block Terraform 1.5 does not know).
			_, stderr, code, err := run(dir, append([]string{"init", "-input=false"}, initArgs...))
			if err != nil || (code != 0 && reference && !allMustFail(st.cmds)) {
				return nil, fmt.Errorf("step %d: init: exit %d %v\n%s", i+1, code, err, stderr)
			}
		}
		for _, line := range st.cmds {
			recs, err := runLine(run, dir, line, n, reference)
			for j := range recs {
				recs[j].step = i + 1
			}
			records = append(records, recs...)
			if err != nil {
				return records, fmt.Errorf("step %d: %w", i+1, err)
			}
		}
	}
	return records, nil
}

// writeStepFiles removes the configuration files (.tf, .tf.json, .tofu,
// .tofu.json) the previous step wrote (in any directory but .terraform)
// and writes the step's files.
func writeStepFiles(dir string, files map[string][]byte) error {
	hasTF := false
	for name := range files {
		hasTF = hasTF || isStepConfigFile(name)
	}
	if hasTF {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".terraform" {
				return filepath.SkipDir
			}
			if !d.IsDir() && isStepConfigFile(p) {
				return os.Remove(p)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("removing the previous step's .tf files: %w", err)
		}
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// allMustFail reports whether every command line starts with "!".
func allMustFail(cmds []string) bool {
	for _, c := range cmds {
		if !strings.HasPrefix(c, "!") {
			return false
		}
	}
	return true
}

// needsInit reports whether a later step must run init again: Terraform
// installs module calls at init.
func needsInit(files map[string][]byte) bool {
	for _, data := range files {
		if bytes.Contains(data, []byte(`module "`)) {
			return true
		}
	}
	return false
}

// expand turns a scenario command line into the commands run. apply,
// destroy and plan go through a saved plan whose show -json is compared;
// every line ends with show -json of the state.
func expand(args []string) [][]string {
	const out = "-out=tfplan"
	show := []string{"show", "-json"}
	planShow := []string{"show", "-json", "tfplan"}
	switch args[0] {
	case "apply":
		plan := append([]string{"plan"}, args[1:]...)
		return [][]string{append(plan, out), planShow, {"apply", "tfplan"}, show}
	case "apply-vars":
		// The saved plan is applied with the same options: ephemeral
		// variables must be given again (Terraform 1.10, OpenTofu 1.11).
		plan := append([]string{"plan"}, args[1:]...)
		return [][]string{append(plan, out), planShow, append([]string{"apply"}, append(args[1:], "tfplan")...), show}
	case "destroy":
		plan := append([]string{"plan", "-destroy"}, args[1:]...)
		return [][]string{append(plan, out), planShow, {"apply", "tfplan"}, show}
	case "plan":
		return [][]string{append(args, out), planShow, show}
	}
	return [][]string{args, show}
}

// runLine runs one command line. A line starting with "!" must fail:
// the commands stop at the first that fails, its exit code is recorded,
// and so is whether the state is still the state before the line.
func runLine(run tool, dir, line string, n *normaliser, reference bool) ([]stepRecord, error) {
	mustFail := strings.HasPrefix(line, "!")
	args := strings.Fields(strings.TrimPrefix(line, "!"))
	var before any
	if mustFail {
		before = rawState(run, dir)
	}
	var records []stepRecord
	failed := false
	for _, c := range expand(args) {
		stdout, stderr, code, err := run(dir, c)
		if err != nil {
			return records, err
		}
		rec := stepRecord{label: strings.Join(c, " "), code: code, stderr: string(stderr)}
		if code == 0 && c[0] == "show" {
			if err = decodeTerraformJSON(stdout, len(c) == 3); err == nil {
				rec.doc, err = n.document(stdout, len(c) == 3)
			}
			if err != nil {
				return records, fmt.Errorf("%s: %w", rec.label, err)
			}
		}
		records = append(records, rec)
		if code != 0 {
			if reference && !mustFail {
				return records, fmt.Errorf("%s: exit %d; the scenario expects success\n%s", rec.label, code, stderr)
			}
			failed = true
			break
		}
	}
	if mustFail {
		if !failed && reference {
			return records, fmt.Errorf("%q succeeded; the scenario expects it to fail", line)
		}
		records = append(records, stepRecord{label: "state unchanged by " + line, doc: cmp.Equal(before, rawState(run, dir))})
		// show -json reads the configuration too, so it fails after a
		// command that failed on an invalid configuration.
		stdout, stderr, code, _ := run(dir, []string{"show", "-json"})
		rec := stepRecord{label: "show -json", code: code, stderr: string(stderr)}
		if code == 0 {
			if err := decodeTerraformJSON(stdout, false); err != nil {
				return records, fmt.Errorf("show -json after %q: %w", line, err)
			}
			doc, err := n.document(stdout, false)
			if err != nil {
				return records, fmt.Errorf("show -json after %q: %w", line, err)
			}
			rec.doc = doc
		}
		records = append(records, rec)
	}
	return records, nil
}

// rawState is the state's show -json document before normalisation, to
// tell whether a failing command left the state as it was.
func rawState(run tool, dir string) any {
	stdout, _, _, _ := run(dir, []string{"show", "-json"})
	doc, err := decodeJSON(stdout)
	if err != nil {
		return string(stdout)
	}
	return doc
}

// isStepConfigFile reports whether a step's file is configuration, which
// the next step's configuration replaces.
func isStepConfigFile(name string) bool {
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}
