package eval

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// CheckKind says what a precondition or postcondition guards; it names the
// check in its failure ("Resource precondition failed").
type CheckKind byte

const (
	// ResourcePrecondition is checked before an instance is planned (and
	// again in apply's final plan), and before a data source is read.
	ResourcePrecondition CheckKind = iota + 1
	// ResourcePostcondition is checked once the instance has its new value:
	// after planning it (self is the planned value) and after applying or
	// reading it (self is the result).
	ResourcePostcondition
	// OutputPrecondition is checked before an output value is recorded.
	OutputPrecondition
	// CheckAssertion is an assert of a check block, checked after planning
	// and after applying what it refers to. Its failure is a warning.
	CheckAssertion
)

// String returns the check's name as messages use it.
func (k CheckKind) String() string {
	switch k {
	case ResourcePrecondition:
		return "Resource precondition"
	case ResourcePostcondition:
		return "Resource postcondition"
	case OutputPrecondition:
		return "Module output value precondition"
	case CheckAssertion:
		return "Check block assertion"
	}
	return fmt.Sprintf("CheckKind(%d)", byte(k))
}

// severity is how a false condition of this kind is reported: a check
// block reports problems without stopping anything, every other condition
// stops the run.
func (k CheckKind) severity() diags.Severity {
	if k == CheckAssertion {
		return diags.Warning
	}
	return diags.Error
}

// CheckRules evaluates the rules' conditions in scope (which carries
// count.index, each.key and each.value, and self for postconditions) and
// returns their diagnostics: an error for each condition that is false,
// whose detail is the rule's error message, and for conditions or messages
// that are not valid. A condition whose value is not known yet is neither
// true nor false: it is checked again when the values it depends on are
// known, which apply does for every rule.
//
// The wording is Terraform 1.5.7's. Sensitive values never reach the
// output: a condition's result is not secret, but an error message built
// from a secret is withheld, with a warning saying why.
func CheckRules(scope *lang.Scope, kind CheckKind, rules []*configs.CheckRule) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, rule := range rules {
		ds = ds.Append(checkRule(scope, kind, rule))
	}
	return ds
}

// checkRule evaluates one rule, reporting a false condition with kind's
// severity.
func checkRule(scope *lang.Scope, kind CheckKind, rule *configs.CheckRule) diags.Diagnostics {
	res, ds := evalRule(scope, rule)
	if res.status != ruleFail {
		return ds
	}
	return ds.Append(atExpr(scope, rule.Condition, kind.severity(), kind.String()+" failed", res.message))
}

// ruleStatus is what evaluating one rule decided.
type ruleStatus byte

const (
	ruleUnknown ruleStatus = iota // the condition is not known yet
	rulePass
	ruleFail
	ruleError // the condition or message is invalid; diagnostics say why
)

type ruleResult struct {
	status ruleStatus
	// message is the error message of a failed rule.
	message string
}

// evalRule evaluates one rule's condition and error message. The error
// message is evaluated whether or not the condition holds, so an invalid
// message is reported before the day it is needed.
func evalRule(scope *lang.Scope, rule *configs.CheckRule) (ruleResult, diags.Diagnostics) {
	msg, withheld, ds := checkErrorMessageValue(scope, rule.ErrorMessage)
	cond, cds := scope.EvalExpr(rule.Condition, cty.DynamicPseudoType)
	ds = ds.Append(cds)
	if ds.HasErrors() {
		return ruleResult{status: ruleError}, ds
	}
	if !cond.IsKnown() {
		return ruleResult{status: ruleUnknown}, ds
	}
	if cond.IsNull() {
		return ruleResult{status: ruleError}, ds.Append(atExpr(scope, rule.Condition, diags.Error, "Invalid condition result",
			"Condition expression must return either true or false, not null."))
	}
	b, err := convert.Convert(cond, cty.Bool)
	if err != nil {
		return ruleResult{status: ruleError}, ds.Append(atExpr(scope, rule.Condition, diags.Error, "Invalid condition result",
			fmt.Sprintf("Invalid condition result value: %s.", diags.FormatError(err))))
	}
	// A condition over a secret is marked too; whether it holds is not
	// secret, and True panics on a marked value.
	b, _ = b.Unmark()
	if b.True() {
		return ruleResult{status: rulePass}, ds
	}
	if withheld != nil {
		ds = ds.Append(*withheld)
	}
	if msg == "" {
		msg = "This check failed, but has an invalid error message as described in the other accompanying messages."
	}
	return ruleResult{status: ruleFail, message: msg}, ds
}

// checkErrorMessageValue evaluates a rule's error message. It returns ""
// with no diagnostics while the message is unknown, and "" with a
// diagnostic when it is not a usable string or derives from a sensitive
// value (then only a warning: the check itself still reports). A marked
// message is reported whether or not the condition holds, as Terraform
// does; one that is not marked but reveals a secret of an object it refers
// to or of the run (a provider's copy of a secret) comes back as withheld,
// for the caller to report only when the message would have been shown:
// Terraform would show it, and there is nothing to correct while the
// condition holds.
func checkErrorMessageValue(scope *lang.Scope, expr hcl.Expression) (msg string, withheld *diags.Diagnostic, ds diags.Diagnostics) {
	val, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return "", nil, ds
	}
	str, err := convert.Convert(val, cty.String)
	switch {
	case err != nil:
		return "", nil, ds.Append(atExpr(scope, expr, diags.Error, "Invalid error message",
			fmt.Sprintf("Unsuitable value for error message: %s.", diags.FormatError(err))))
	case !str.IsKnown():
		return "", nil, ds
	case str.IsNull():
		return "", nil, ds.Append(atExpr(scope, expr, diags.Error, "Invalid error message",
			"Unsuitable value for error message: must not be null."))
	}
	str, valMarks := str.Unmark()
	text := strings.TrimSpace(str.AsString())
	if _, secret := valMarks[configschema.SensitiveMark]; secret {
		return "", nil, ds.Append(sensitiveMessage(scope, expr))
	}
	// A message built from a provider's unmarked copy of a secret (self.output
	// of a terraform_data whose input is sensitive, or of one whose input
	// is another object's copy) shows the secret as surely as one built
	// from the secret itself.
	if scope.RevealsSecret(expr, text) {
		d := sensitiveMessage(scope, expr)
		return "", &d, ds
	}
	return text, nil, ds
}

// sensitiveMessage is Terraform's warning for an error message withheld
// because it would show a secret.
func sensitiveMessage(scope *lang.Scope, expr hcl.Expression) diags.Diagnostic {
	return atExpr(scope, expr, diags.Warning, "Error message refers to sensitive values",
		"The error expression used to explain this condition refers to sensitive values, so Cairn will not display the resulting message.\n\n"+
			"You can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data.")
}

// atExpr is a diagnostic about expr that shows, under its source, what
// the expression's references were in scope (never a sensitive one).
func atExpr(scope *lang.Scope, expr hcl.Expression, sev diags.Severity, summary, detail string) diags.Diagnostic {
	return diags.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Subject: expr.Range().Ptr(), Values: scope.DescribeValues(expr)}
}

// CheckInstance evaluates the preconditions (kind ResourcePrecondition) or
// postconditions (ResourcePostcondition) of resource r for one of its
// instances, in the instance's scope: count.index or each.key and
// each.value from exp, and for postconditions self, the instance's new
// value (planned while planning, the result after apply or read). Planning
// and applying both call it, so an instance is checked by the same rules
// at each point of its lifecycle.
func (e *Env) CheckInstance(r *configs.Resource, addr addrs.AbsResourceInstance, exp *instances.Expansion, kind CheckKind, self cty.Value) diags.Diagnostics {
	rules := r.Preconditions
	if kind == ResourcePostcondition {
		rules = r.Postconditions
	}
	if len(rules) == 0 {
		return nil
	}
	scope := e.InstanceScope(addr, exp)
	if kind == ResourcePostcondition {
		scope.Self = self
	}
	return CheckRules(scope, kind, rules)
}

// CheckOutput evaluates the preconditions of output o in module instance
// m, before its value is recorded.
func (e *Env) CheckOutput(o *configs.Output, m addrs.ModuleInstance) diags.Diagnostics {
	if len(o.Preconditions) == 0 {
		return nil
	}
	return CheckRules(e.Scope(m), OutputPrecondition, o.Preconditions)
}
