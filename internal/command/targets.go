package command

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// parseTargets parses the -target options. When there are any, the
// result carries Terraform's warning that the plan may be incomplete.
func parseTargets(args []string) ([]addrs.Target, diags.Diagnostics) {
	var ds diags.Diagnostics
	var out []addrs.Target
	for _, s := range args {
		t, tds := addrs.ParseTargetStr(s)
		ds = ds.Append(tds)
		if !tds.HasErrors() {
			out = append(out, t)
		}
	}
	if len(out) > 0 && !ds.HasErrors() {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Resource targeting is in effect",
			Detail: "You are creating a plan with the -target option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message."})
	}
	return out, ds
}

// incompleteApplyWarning is Terraform's warning after applying a plan made
// with -target.
func incompleteApplyWarning() diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Applied changes may be incomplete",
		Detail: "The plan was created with the -target option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    cairn plan\n\t\nNote that the -target option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message."}
}
