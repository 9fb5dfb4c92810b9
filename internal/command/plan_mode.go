package command

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// planMode decides the planning mode from -destroy and -refresh-only,
// refusing the combinations Terraform 1.5.7 refuses, with its messages.
// Terraform checks these while parsing arguments, before anything is
// loaded, so callers do too.
func planMode(c *commonFlags, destroy bool) (plans.Mode, diags.Diagnostics) {
	switch {
	case destroy && c.refreshOnly:
		return plans.NormalMode, diags.Diagnostics{diags.Errorf("Incompatible plan mode options",
			"The -destroy and -refresh-only options are mutually-exclusive.")}
	case destroy:
		return plans.DestroyMode, nil
	case c.refreshOnly && !c.refresh:
		return plans.NormalMode, diags.Diagnostics{diags.Errorf("Incompatible refresh options",
			"It doesn't make sense to use -refresh-only at the same time as -refresh=false, because Terraform would have nothing to do.")}
	case c.refreshOnly:
		return plans.RefreshOnlyMode, nil
	}
	return plans.NormalMode, nil
}

// checkReplaceMode refuses -replace outside normal planning, as Terraform
// does once the operation has started: no other mode plans an action a
// replacement could upgrade.
func checkReplaceMode(c *commonFlags, mode plans.Mode) diags.Diagnostics {
	if len(c.replace) == 0 || mode == plans.NormalMode {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Unsupported plan mode",
		"Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode.")}
}

// failUsage shows argument errors the way Terraform does, followed by
// where to find the command's help, and returns 1.
func (m *Meta) failUsage(ds diags.Diagnostics, command string) int {
	m.showDiags(ds)
	fmt.Fprintf(m.Stderr, "\nFor more help on using this command, run:\n  cairn %s -help\n", command)
	return 1
}
