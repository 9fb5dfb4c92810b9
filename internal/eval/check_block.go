package eval

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// CheckAssertions evaluates the assert blocks of check c in module
// instance m, after what they refer to was planned or applied, and returns
// the check's status with the messages of its false assertions.
//
// A false assertion is a warning (Terraform's "Check block assertion
// failed"), so checks never stop a run; an assertion that cannot be
// evaluated is an error, as in Terraform. While planning, an assertion
// whose result is not known yet is a warning saying it will be known after
// apply; apply evaluates every assertion again with the applied values.
func (e *Env) CheckAssertions(c *configs.Check, m addrs.ModuleInstance, planning bool) (plans.CheckStatus, []string, diags.Diagnostics) {
	scope := e.Scope(m)
	status := plans.CheckPass
	var problems []string
	var ds diags.Diagnostics
	for _, rule := range c.Asserts {
		res, rds := evalRule(scope, rule)
		ds = ds.Append(rds)
		switch res.status {
		case ruleFail:
			problems = append(problems, res.message)
			ds = ds.Append(atExpr(scope, rule.Condition, CheckAssertion.severity(), CheckAssertion.String()+" failed", res.message))
		case ruleUnknown:
			if planning {
				ds = ds.Append(atExpr(scope, rule.Condition, diags.Warning, "Check block assertion known after apply",
					"The condition could not be evaluated at this time, a result will be known when this plan is applied."))
			}
		}
		status = status.Worse(res.status.checkStatus())
	}
	return status, problems, fromCheckBlock(ds)
}

// fromCheckBlock marks ds as a check block's reports.
func fromCheckBlock(ds diags.Diagnostics) diags.Diagnostics {
	for i := range ds {
		ds[i].FromCheckBlock = true
	}
	return ds
}

// checkStatus is the check status of one assertion's outcome.
func (r ruleStatus) checkStatus() plans.CheckStatus {
	switch r {
	case rulePass:
		return plans.CheckPass
	case ruleFail:
		return plans.CheckFail
	case ruleError:
		return plans.CheckError
	}
	return plans.CheckUnknown
}

// ScopedDataFailed turns the errors of reading a check block's scoped data
// source into warnings, as Terraform does: a check reports problems but
// never stops a run. It returns the warnings and the check's problems, one
// "summary: detail" per error, which is how Terraform records a failed
// scoped read among the check's failure messages.
func ScopedDataFailed(ds diags.Diagnostics) (diags.Diagnostics, []string) {
	out := make(diags.Diagnostics, len(ds))
	var problems []string
	for i, d := range ds {
		if d.Severity == diags.Error {
			problems = append(problems, d.Summary+": "+d.Detail)
			d.Severity = diags.Warning
		}
		d.FromCheckBlock = true
		out[i] = d
	}
	return out, problems
}
