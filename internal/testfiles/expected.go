package testfiles

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/modulerun"
)

// expected applies a run's expect_failures to ds (the run's diagnostics
// so far are prior): a diagnostic of a custom condition of an expected
// object is what the run wanted and is dropped; an expected object that
// reported nothing is a "Missing expected failure". The status is Error
// when other errors are left, Fail when an expected failure is missing,
// else Pass.
func (fr *fileRun) expected(mod *modulerun.Module, run *Run, prior, ds diags.Diagnostics) (diags.Diagnostics, Status) {
	out := append(diags.Diagnostics{}, prior...)
	hit := make([]bool, len(run.ExpectFailures))
	ranges := make([][]hcl.Range, len(run.ExpectFailures))
	for i, ef := range run.ExpectFailures {
		ranges[i] = checkableRanges(mod.Config(), ef.Traversal)
	}
	for _, d := range ds {
		matched := false
		for i := range ranges {
			if d.Subject != nil && within(*d.Subject, ranges[i]) {
				hit[i], matched = true, true
			}
		}
		if !matched {
			out = append(out, d)
		}
	}
	status := Pass
	for i, ef := range run.ExpectFailures {
		if !hit[i] {
			status = Fail
			out = out.Append(diags.At(ef.Traversal.SourceRange(), "Missing expected failure",
				fmt.Sprintf("The checkable object, %s, was expected to report an error but did not.", traversalString(ef.Traversal))))
		}
	}
	for _, d := range out {
		if d.Severity == diags.Error && d.Summary != "Missing expected failure" && d.Summary != "Test assertion failed" {
			return out, Error
		}
		if d.Summary == "Test assertion failed" {
			status = status.Merge(Fail)
		}
	}
	return out, status
}

// checkableRanges are the ranges of the custom conditions of the object
// t names: a variable's validations, an output's preconditions, a
// resource's pre- and postconditions, a check block's asserts.
func checkableRanges(cfg *configs.Module, t hcl.Traversal) []hcl.Range {
	var rules []*configs.CheckRule
	name := func(i int) string {
		if i < len(t) {
			if a, ok := t[i].(hcl.TraverseAttr); ok {
				return a.Name
			}
		}
		return ""
	}
	switch t.RootName() {
	case "var":
		v := cfg.Variables[name(1)]
		if v == nil {
			return nil
		}
		// A value given by a test file is reported at the declaration,
		// which it has no expression of its own in the module to point at.
		out := []hcl.Range{v.DeclRange}
		for _, r := range v.Validations {
			out = append(out, r.Condition.Range(), r.ErrorMessage.Range())
		}
		return out
	case "output":
		if o := cfg.Outputs[name(1)]; o != nil {
			rules = o.Preconditions
		}
	case "check":
		if c := cfg.Checks[name(1)]; c != nil {
			rules = c.Asserts
		}
	default:
		ref, hd := addrs.ParseRef(t)
		if hd.HasErrors() {
			return nil
		}
		var r addrs.Resource
		switch s := ref.Subject.(type) {
		case addrs.Resource:
			r = s
		case addrs.ResourceInstance:
			r = s.Resource
		default:
			return nil
		}
		if rc := cfg.ResourceByAddr(r); rc != nil {
			rules = append(append(rules, rc.Preconditions...), rc.Postconditions...)
		}
	}
	var out []hcl.Range
	for _, r := range rules {
		out = append(out, r.Condition.Range(), r.ErrorMessage.Range())
	}
	return out
}

func within(r hcl.Range, outer []hcl.Range) bool {
	for _, o := range outer {
		if r.Filename == o.Filename && r.Start.Byte >= o.Start.Byte && r.End.Byte <= o.End.Byte {
			return true
		}
	}
	return false
}
