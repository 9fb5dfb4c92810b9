package command

import (
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// requireConfiguration refuses to plan, apply or validate a directory that
// holds no configuration files. An empty configuration is a valid module
// whose plan destroys everything in state, so running in the wrong
// directory (a typo in -chdir, a checkout without its .tf files) would
// otherwise propose, and with -auto-approve carry out, the destruction of
// every object. Destroying on purpose is what -destroy and "cairn destroy"
// are for. verb is "plan", "apply" or "validate".
func requireConfiguration(cfg *configs.Module, verb string) diags.Diagnostics {
	if cfg == nil || len(cfg.Sources) > 0 {
		return nil
	}
	const summary = "No configuration files"
	switch verb {
	case "plan":
		return diags.Diagnostics{diags.Errorf(summary,
			"Plan requires configuration to be present. Planning without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run plan with the -destroy option. Otherwise, create a Terraform configuration file (.tf file) and try again.")}
	case "apply":
		return diags.Diagnostics{diags.Errorf(summary,
			"Apply requires configuration to be present. Applying without a configuration would mark everything for destruction, which is normally not what is desired. If you would like to destroy everything, run 'cairn destroy' instead.")}
	default:
		return diags.Diagnostics{diags.Errorf(summary,
			"There is no .tf or .tf.json file in this directory, so there is nothing to validate. Run validate in the directory that holds the configuration, or name it with -chdir=DIR.")}
	}
}
