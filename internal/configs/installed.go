package configs

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/go-version"
)

// InstalledModule is where "init" put the module of one non-local call:
// a record of .terraform/modules/modules.json.
type InstalledModule struct {
	// Source is the call's source in the installer's normalised form.
	Source string
	// Version is the registry version installed, empty for other sources.
	Version string
	// Dir is the module's directory relative to the root module's, in
	// slash form (".terraform/modules/net" or a subdirectory of it).
	Dir string
}

// InstalledModules tells the loader where the modules of non-local calls
// are. Without it (nil) a configuration with such calls does not load.
type InstalledModules struct {
	// Modules holds the records by module key: the call path joined with
	// dots ("net", "net.subnets").
	Modules map[string]InstalledModule
	// Normalize returns a source argument in the form Modules records, so
	// that a changed source is noticed; nil compares them as written.
	Normalize func(source string) string
	// Static evaluates the source and version of calls that refer to
	// variables and locals. Without it (a configuration read back from a
	// plan file) such a call loads the module Modules records for it.
	Static StaticValues
}

// static returns inst's StaticValues; nil when inst is.
func (inst *InstalledModules) static() StaticValues {
	if inst == nil {
		return nil
	}
	return inst.Static
}

// resolveDynamicCall gives a call whose source or version is an
// expression its values: evaluated when inst can, else (a plan file's
// configuration) the source the manifest records for key, which is what
// the plan was made with.
func (inst *InstalledModules) resolveDynamicCall(parent *Module, mc *ModuleCall, key string) diags.Diagnostics {
	if s := inst.static(); s != nil {
		return ResolveCall(parent, mc, s)
	}
	if inst != nil {
		if rec, ok := inst.Modules[key]; ok && mc.SourceExpr != nil {
			mc.SourceAddr, mc.Version = rec.Source, ""
			return nil
		}
	}
	return ResolveCall(parent, mc, nil)
}

// checkDynamicLocal compares a local source that was evaluated with what
// "init" recorded for key, so that a variable changing the directory
// asks for init again, as OpenTofu does. A call init has not seen loads.
func (inst *InstalledModules) checkDynamicLocal(key string, mc *ModuleCall) *diags.Diagnostic {
	if inst == nil || mc.SourceExpr == nil {
		return nil
	}
	rec, ok := inst.Modules[key]
	if !ok {
		return nil
	}
	src := mc.SourceAddr
	if inst.Normalize != nil {
		src = inst.Normalize(src)
	}
	if src == rec.Source {
		return nil
	}
	d := diags.At(mc.SourceAddrRange, "Module source has changed",
		fmt.Sprintf(`The source address was changed from %q to %q since this module was installed. Run "cairn init" to install all modules required by this configuration.`, rec.Source, src))
	return &d
}

// installedDir finds the directory of a non-local call's module, with
// Terraform's diagnostics when it is not installed or the configuration
// changed since it was.
func (inst *InstalledModules) installedDir(key string, mc *ModuleCall) (string, diags.Diagnostics) {
	notInstalled := diags.At(mc.DeclRange, "Module not installed",
		`This module is not yet installed. Run "cairn init" to install all modules required by this configuration.`)
	if inst == nil {
		return "", diags.Diagnostics{notInstalled}
	}
	rec, ok := inst.Modules[key]
	if !ok {
		return "", diags.Diagnostics{notInstalled}
	}
	src := mc.SourceAddr
	if inst.Normalize != nil {
		src = inst.Normalize(src)
	}
	if src != rec.Source {
		return "", diags.Diagnostics{diags.At(mc.SourceAddrRange, "Module source has changed",
			`The source address was changed since this module was installed. Run "cairn init" to install all modules required by this configuration.`)}
	}
	if d := checkInstalledVersion(mc, rec.Version); d != nil {
		return "", diags.Diagnostics{*d}
	}
	return rec.Dir, nil
}

// checkInstalledVersion reports a version constraint the installed
// version no longer meets.
func checkInstalledVersion(mc *ModuleCall, installed string) *diags.Diagnostic {
	if mc.Version == "" {
		return nil
	}
	cons, err := version.NewConstraint(mc.Version)
	if err != nil {
		return nil // reported when the block was decoded
	}
	v, err := version.NewVersion(installed)
	if installed == "" || err != nil {
		d := diags.At(mc.SourceAddrRange, "Module version requirements have changed",
			`The version requirements have changed since this module was installed and the installed version is no longer acceptable. Run "cairn init" to install all modules required by this configuration.`)
		return &d
	}
	if !cons.Check(v) {
		d := diags.At(mc.SourceAddrRange, "Module version requirements have changed",
			fmt.Sprintf(`The version requirements have changed since this module was installed and the installed version (%s) is no longer acceptable. Run "cairn init" to install all modules required by this configuration.`, v))
		return &d
	}
	return nil
}
