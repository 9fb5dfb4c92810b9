package command

import (
	"bufio"
	"bytes"
	"os"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// parseTargeting parses -target, -target-file, -exclude and -exclude-file
// (the last three OpenTofu's). Targets and excludes together are refused
// with OpenTofu's error; excludes carry OpenTofu's warning that the plan
// may be incomplete, targets Terraform's.
func (m *Meta) parseTargeting(c *commonFlags) (targets, excludes []addrs.Target, ds diags.Diagnostics) {
	if len(c.exclude) == 0 && len(c.excludeFile) == 0 && len(c.targetFile) == 0 {
		return parseTargetsWarn(c.target)
	}
	if (len(c.target) > 0 || len(c.targetFile) > 0) && (len(c.exclude) > 0 || len(c.excludeFile) > 0) {
		return nil, nil, diags.Diagnostics{diags.Errorf("Invalid combination of arguments",
			"The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options.")}
	}
	targetArgs, fds := m.addressFileLines(c.target, c.targetFile)
	if ds = ds.Append(fds); ds.HasErrors() {
		return nil, nil, ds
	}
	if len(targetArgs) > 0 {
		targets, tds := parseTargets(targetArgs)
		return targets, nil, ds.Append(tds)
	}
	excludeArgs, fds := m.addressFileLines(c.exclude, c.excludeFile)
	if ds = ds.Append(fds); ds.HasErrors() {
		return nil, nil, ds
	}
	for _, s := range excludeArgs {
		t, tds := addrs.ParseTargetStr(s)
		ds = ds.Append(tds)
		if !tds.HasErrors() {
			excludes = append(excludes, t)
		}
	}
	if len(excludes) > 0 && !ds.HasErrors() {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Resource targeting is in effect",
			Detail: "You are creating a plan with either the -target option or the -exclude option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target and -exclude options are not for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when Cairn specifically suggests to use it as part of an error message."})
	}
	return nil, excludes, ds
}

// parseTargetsWarn is parseTargets with the result shape of
// parseTargeting.
func parseTargetsWarn(args []string) ([]addrs.Target, []addrs.Target, diags.Diagnostics) {
	t, ds := parseTargets(args)
	return t, nil, ds
}

// addressFileLines returns args followed by the addresses in files: one
// a line, lines starting with # skipped. A blank line is an error, as in
// OpenTofu (an empty address). A relative file name is under the
// working directory.
func (m *Meta) addressFileLines(args, files []string) ([]string, diags.Diagnostics) {
	out := append([]string(nil), args...)
	var ds diags.Diagnostics
	for _, f := range files {
		b, err := os.ReadFile(m.absPath(f))
		if err != nil {
			ds = ds.Append(diags.Errorf("Failed to read address file", "Cairn could not read %s: %s.", f, err))
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) > 0 && line[0] == '#' {
				continue
			}
			if len(line) == 0 {
				pos := hcl.Pos{Line: n, Column: 1, Byte: 0}
				ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Variable name required",
					Detail: "Must begin with a variable name.", Subject: &hcl.Range{Filename: f, Start: pos, End: pos}})
				continue
			}
			out = append(out, string(line))
		}
	}
	return out, ds
}

// incompleteExcludeApplyWarning is OpenTofu's warning after applying a
// plan made with -exclude.
func incompleteExcludeApplyWarning() diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Warning, Summary: "Applied changes may be incomplete",
		Detail: "The plan was created with the -target or the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    cairn plan\n\t\nNote that the -target and -exclude options are not suitable for routine use, and are provided only for exceptional situations such as recovering from errors or mistakes, or when Cairn specifically suggests to use it as part of an error message."}
}
