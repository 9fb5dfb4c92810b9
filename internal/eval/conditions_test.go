package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// checkView is what TestCheckRules compares of a diagnostic: for a failed
// check the detail is the author's message, so it is part of the
// behaviour.
type checkView struct {
	Severity diags.Severity
	Summary  string
	At       string
	Detail   string
	// Values are the references' values shown under the source.
	Values []string
}

func failed(v diagView, detail string, values ...string) checkView {
	return checkView{v.Severity, v.Summary, v.At, detail, values}
}

// conditionRule parses a rule whose condition is on line 1 of main.tf and
// whose error message is on line 2, so diagnostics say which one they are
// about.
func conditionRule(t *testing.T, cond, msg string) *configs.CheckRule {
	t.Helper()
	c, ds := hclsyntax.ParseExpression([]byte(cond), "main.tf", hcl.Pos{Line: 1, Column: 1})
	if ds.HasErrors() {
		t.Fatalf("parsing %q: %s", cond, ds.Error())
	}
	m, ds := hclsyntax.ParseExpression([]byte(msg), "main.tf", hcl.Pos{Line: 2, Column: 1})
	if ds.HasErrors() {
		t.Fatalf("parsing %q: %s", msg, ds.Error())
	}
	return &configs.CheckRule{Condition: c, ErrorMessage: m}
}

func TestCheckRules(t *testing.T) {
	secret := cty.StringVal("hunter2").Mark(configschema.SensitiveMark)
	vars := map[string]cty.Value{
		"n":       cty.NumberIntVal(1),
		"s":       cty.StringVal("x"),
		"null":    cty.NullVal(cty.Bool),
		"unknown": cty.UnknownVal(cty.Number),
		"secret":  secret,
	}
	const sensitiveMsg = "Error message refers to sensitive values"
	const sensitiveDetail = "The error expression used to explain this condition refers to sensitive values, so Cairn will not display the resulting message.\n\nYou can correct this by removing references to sensitive values, or by carefully using the nonsensitive() function if the expression will not reveal the sensitive data."
	const invalidMsg = "This check failed, but has an invalid error message as described in the other accompanying messages."
	cases := map[string]struct {
		reason string
		kind   CheckKind
		cond   string
		msg    string
		rep    lang.Repetition
		self   cty.Value
		want   []checkView
	}{
		"True": {
			cond: `var.n == 1`, msg: `"n must be 1."`,
		},
		"False": {
			cond: `var.n > 2`, msg: `"n must be more than 2."`,
			want: []checkView{failed(errAt("Resource precondition failed", "main.tf:1:1"), "n must be more than 2.", "var.n is 1")},
		},
		"MessageTrimmed": {
			reason: "Terraform trims the error message before showing it.",
			kind:   OutputPrecondition,
			cond:   `var.n > 2`, msg: `"  n is ${var.n}.\n"`,
			want: []checkView{failed(errAt("Module output value precondition failed", "main.tf:1:1"), "n is 1.", "var.n is 1")},
		},
		"UnknownDeferred": {
			reason: "A condition not known yet neither passes nor fails; apply checks it again.",
			cond:   `var.unknown > 2`, msg: `"never shown"`,
		},
		"UnknownMessageTrueCondition": {
			reason: "An error message not known yet is fine while the condition holds.",
			cond:   `var.n == 1`, msg: `"${var.unknown}"`,
		},
		"UnknownMessageFalseCondition": {
			cond: `var.n == 2`, msg: `"got ${var.unknown}"`,
			want: []checkView{failed(errAt("Resource precondition failed", "main.tf:1:1"), invalidMsg, "var.n is 1")},
		},
		"NullCondition": {
			cond: `var.null`, msg: `"never shown"`,
			want: []checkView{failed(errAt("Invalid condition result", "main.tf:1:1"), "Condition expression must return either true or false, not null.", "var.null is null")},
		},
		"StringCondition": {
			cond: `var.s`, msg: `"never shown"`,
			want: []checkView{failed(errAt("Invalid condition result", "main.tf:1:1"), "Invalid condition result value: a bool is required.", `var.s is "x"`)},
		},
		"StringTrueCondition": {
			reason: `"true" converts to a bool, so it passes, as in Terraform.`,
			cond:   `var.s == "x" ? "true" : "false"`, msg: `"never shown"`,
		},
		"ListCondition": {
			cond: `[var.n]`, msg: `"never shown"`,
			want: []checkView{failed(errAt("Invalid condition result", "main.tf:1:1"), "Invalid condition result value: bool required.", "var.n is 1")},
		},
		"NullMessage": {
			reason: "The message is checked even when the condition holds, so a broken message is found early.",
			cond:   `var.n == 1`, msg: `var.null == null ? null : "x"`,
			want: []checkView{failed(errAt("Invalid error message", "main.tf:2:1"), "Unsuitable value for error message: must not be null.", "var.null is null")},
		},
		"ListMessage": {
			reason: "An unusable message is an error, and the failure itself is not reported twice.",
			cond:   `var.n == 2`, msg: `[var.s]`,
			want: []checkView{failed(errAt("Invalid error message", "main.tf:2:1"), "Unsuitable value for error message: string required.", `var.s is "x"`)},
		},
		"SensitiveCondition": {
			reason: "Whether a condition over a secret holds is not secret; its value is never described.",
			cond:   `var.secret == "nope"`, msg: `"secret is wrong."`,
			want: []checkView{failed(errAt("Resource precondition failed", "main.tf:1:1"), "secret is wrong.")},
		},
		"SensitiveMessage": {
			reason: "A message built from a secret is never shown; a warning says why.",
			cond:   `var.n == 2`, msg: `"secret is ${var.secret}"`,
			want: []checkView{
				failed(warnAt(sensitiveMsg, "main.tf:2:1"), sensitiveDetail),
				failed(errAt("Resource precondition failed", "main.tf:1:1"), invalidMsg, "var.n is 1"),
			},
		},
		"SensitiveMessagePassing": {
			cond: `var.n == 1`, msg: `"secret is ${var.secret}"`,
			want: []checkView{failed(warnAt(sensitiveMsg, "main.tf:2:1"), sensitiveDetail)},
		},
		"MessageError": {
			cond: `var.n == 2`, msg: `upper(var.null)`,
			want: []checkView{failed(errAt("Invalid function argument", "main.tf:2:7"), "")},
		},
		"CountIndex": {
			cond: `count.index != 1`, msg: `"index ${count.index} is refused."`,
			rep:  lang.Repetition{CountIndex: cty.NumberIntVal(1)},
			want: []checkView{failed(errAt("Resource precondition failed", "main.tf:1:1"), "index 1 is refused.", "count.index is 1")},
		},
		"EachKey": {
			cond: `each.value < 3`, msg: `"${each.key} is too big."`,
			rep:  lang.Repetition{EachKey: cty.StringVal("b"), EachValue: cty.NumberIntVal(3)},
			want: []checkView{failed(errAt("Resource precondition failed", "main.tf:1:1"), "b is too big.", "each.value is 3")},
		},
		"SelfPlanned": {
			kind: ResourcePostcondition,
			cond: `self.size == 2`, msg: `"size is ${self.size}."`,
			self: cty.ObjectVal(map[string]cty.Value{"size": cty.NumberIntVal(1)}),
			want: []checkView{failed(errAt("Resource postcondition failed", "main.tf:1:1"), "size is 1.", "self.size is 1")},
		},
		"SelfCopyOfSecret": {
			reason: "A message built from a provider's unmarked copy of a secret (terraform_data's output) is withheld as a message built from the secret is; Terraform prints it.",
			kind:   ResourcePostcondition,
			cond:   `self.output == "x"`, msg: `"got ${self.output}"`,
			self: cty.ObjectVal(map[string]cty.Value{"input": secret, "output": cty.StringVal("hunter2")}),
			want: []checkView{
				failed(warnAt(sensitiveMsg, "main.tf:2:1"), sensitiveDetail),
				failed(errAt("Resource postcondition failed", "main.tf:1:1"), invalidMsg),
			},
		},
		"SelfCopyOfSecretPassing": {
			reason: "A copy's message is not shown while the condition holds, and there is nothing to warn about.",
			kind:   ResourcePostcondition,
			cond:   `self.output == "hunter2"`, msg: `"got ${self.output}"`,
			self: cty.ObjectVal(map[string]cty.Value{"input": secret, "output": cty.StringVal("hunter2")}),
		},
		"CopyFromAnotherObject": {
			reason: "self holds no mark, only a copy of a secret another object holds (an input copied from an id built from a sensitive name): the run's secrets withhold the message and the value is not described.",
			kind:   ResourcePostcondition,
			cond:   `self.output == "x"`, msg: `"got ${self.output}"`,
			self: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("app-s3cr3t-name-v2"), "output": cty.StringVal("app-s3cr3t-name-v2")}),
			want: []checkView{
				failed(warnAt(sensitiveMsg, "main.tf:2:1"), sensitiveDetail),
				failed(errAt("Resource postcondition failed", "main.tf:1:1"), invalidMsg),
			},
		},
		"CopyFromAnotherObjectPassing": {
			kind: ResourcePostcondition,
			cond: `self.output != "x"`, msg: `"got ${self.output}"`,
			self: cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("app-s3cr3t-name-v2"), "output": cty.StringVal("app-s3cr3t-name-v2")}),
		},
		"SelfBesideSecret": {
			reason: "A message from other values of an object that holds a secret is shown.",
			kind:   ResourcePostcondition,
			cond:   `self.size == 2`, msg: `"size is ${self.size}."`,
			self: cty.ObjectVal(map[string]cty.Value{"input": secret, "size": cty.NumberIntVal(1)}),
			want: []checkView{failed(errAt("Resource postcondition failed", "main.tf:1:1"), "size is 1.")},
		},
		"SelfUnknown": {
			reason: "A postcondition on a value known only after apply is deferred to apply.",
			kind:   ResourcePostcondition,
			cond:   `self.size == 2`, msg: `"size is ${self.size}."`,
			self: cty.ObjectVal(map[string]cty.Value{"size": cty.UnknownVal(cty.Number)}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kind := tc.kind
			if kind == 0 {
				kind = ResourcePrecondition
			}
			// The run knows a secret no object in scope holds.
			known := marks.NewKnown()
			known.Add(cty.StringVal("s3cr3t-name").Mark(marks.Sensitive))
			scope := &lang.Scope{Data: namedvals.New(vars).Data(addrs.RootModuleInstance), Funcs: funcs.Table("."), Repetition: tc.rep, Self: tc.self, Secrets: known}
			ds := CheckRules(scope, kind, []*configs.CheckRule{conditionRule(t, tc.cond, tc.msg)})
			var got []checkView
			for i, v := range viewDiags(ds) {
				cv := failed(v, ds[i].Detail)
				for _, ev := range ds[i].Values {
					cv.Values = append(cv.Values, ev.Traversal+" "+ev.Statement)
				}
				if v.Summary == "Invalid function argument" {
					cv.Detail = "" // HCL's wording, not ours
				}
				got = append(got, cv)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			for _, d := range ds {
				if text := d.Summary + d.Detail + fmt.Sprint(d.Values); strings.Contains(text, "hunter2") || strings.Contains(text, "s3cr3t") {
					t.Errorf("the secret appears in %q: %q", d.Summary, d.Detail)
				}
			}
		})
	}
}

func TestCheckKindString(t *testing.T) {
	want := map[CheckKind]string{
		ResourcePrecondition:  "Resource precondition",
		ResourcePostcondition: "Resource postcondition",
		OutputPrecondition:    "Module output value precondition",
		CheckAssertion:        "Check block assertion",
	}
	for k, w := range want {
		if got := k.String(); got != w {
			t.Errorf("%d: got %q, want %q", k, got, w)
		}
	}
}
