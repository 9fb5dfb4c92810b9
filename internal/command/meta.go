package command

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/zclconf/go-cty/cty/function"
)

// Meta is what every command shares: the terminal, the working directory
// and the options common to all commands.
type Meta struct {
	Streams
	// Dir is the working directory (absolute), after -chdir.
	Dir string
	// Color is false with -no-color; colorOn decides whether a given
	// stream gets colour.
	Color bool
	// sources holds configuration sources for diagnostics snippets.
	sources map[string][]byte
	// machineOutput is set when stdout carries a JSON document, so
	// progress lines must stay off it.
	machineOutput bool
	// jsonUI is set by -json on plan, apply and destroy: everything the
	// command says goes out as the machine-readable UI stream.
	jsonUI *jsonView
	// awscc loads the built-in awscc provider once per run (see awscc.go).
	awscc awsccProviders
	// rawVars are the variable values the run collected (nil until then).
	rawVars map[string]eval.RawVariable
	// stateTypes are the awscc resource and data source types the run's
	// state and plan hold; nil until a state is read, and then the awscc
	// provider loads only the types the configuration and state use.
	stateTypes map[string]bool
	// allAWSCCTypes asks for every awscc type (providers schema).
	allAWSCCTypes bool
	// listTypes are the types cairn query's list blocks name: awscc
	// serves them besides the configuration's and the state's.
	listTypes []string
	// libraries are the provider libraries the command opened, closed
	// when it returns.
	libraries []*providers.Library
	// varFlags are the command's -var and -var-file options, for the
	// encryption block's passphrase; enc is that block, decoded once
	// (see encryptionTargets).
	varFlags []varFlag
	enc      *runEncryption
	// takesVarOptions is set when the command registered varOptions.
	takesVarOptions bool
	// secrets are the secrets the run knows of (render's Options.Secrets,
	// planning's and applying's): every text for people, diagnostics
	// included, is checked against them. nil until a command reads a
	// state or plans.
	secrets *marks.Known
	// helpFlags is set when the command answered -help (to the options
	// it showed): the run then exits 0 whatever the command returned.
	helpFlags *flag.FlagSet
	// logs are the run's TF_LOG loggers (see logging.go).
	logs *runLogs
	// gen is plan -generate-config-out's work (see generate_config.go);
	// nil without the option.
	gen *configGeneration
}

// renderOpts are the rendering options for text written to stdout.
func (m *Meta) renderOpts() render.Options {
	return render.Options{Color: m.colorOn(m.Stdout), Secrets: m.secrets}
}

// runSecrets returns the run's secrets, starting the set on first use.
func (m *Meta) runSecrets() *marks.Known {
	if m.secrets == nil {
		m.secrets = marks.NewKnown()
	}
	return m.secrets
}

// showDiags prints diagnostics: errors to stderr, warnings to stdout, as
// Terraform does; with -json, all of them as messages on stdout.
func (m *Meta) showDiags(ds diags.Diagnostics) {
	if m.jsonUI != nil {
		m.jsonUI.diagnostics(ds)
		return
	}
	var errs, warns diags.Diagnostics
	for _, d := range ds {
		if d.Severity == diags.Error {
			errs = append(errs, d)
		} else {
			warns = append(warns, d)
		}
	}
	if len(warns) > 0 {
		render.Diagnostics(m.Stdout, warns, m.sources, m.renderOpts())
	}
	if len(errs) > 0 {
		render.Diagnostics(m.Stderr, errs, m.sources, render.Options{Color: m.colorOn(m.Stderr), Secrets: m.secrets})
	}
}

// fail prints diagnostics and returns exit code 1.
func (m *Meta) fail(ds diags.Diagnostics) int {
	m.showDiags(ds)
	return 1
}

// errorf prints one error diagnostic without a location and returns 1.
func (m *Meta) errorf(summary, format string, args ...any) int {
	return m.fail(diags.Diagnostics{diags.Errorf(summary, format, args...)})
}

// loadConfig loads the configuration in the working directory.
func (m *Meta) loadConfig() (*configs.Module, diags.Diagnostics) {
	man, ds := m.installedModules()
	if ds.HasErrors() {
		return nil, ds
	}
	inst := man.Installed()
	inst.Static = m.staticModules()
	cfg, ds := configs.LoadDirInstalled(m.Dir, inst)
	if m.gen != nil && cfg != nil {
		cfg, ds = m.gen.placeholders(m.Dir, cfg, ds, inst)
	}
	if cfg != nil && len(man) > 1 && cfg.Sources != nil {
		// A saved plan carries the manifest with the files, so that
		// apply loads the modules the plan was made with.
		cfg.Sources[planManifestKey] = man.Bytes()
	}
	if cfg != nil {
		m.sources = cfg.Sources
	}
	return cfg, ds
}

// loadConfigSources loads configuration embedded in a plan file.
func (m *Meta) loadConfigSources(files map[string][]byte) (*configs.Module, diags.Diagnostics) {
	m.sources = files
	man, ds := m.plannedModules(files)
	if ds.HasErrors() {
		return nil, ds
	}
	return configs.LoadFilesInstalled(m.Dir, files, man.Installed())
}

// providerLibrary returns the providers available to this run: the
// built-in terraform provider, and the built-in awscc provider when cfg (may
// be nil) or the environment says where its CloudFormation schemas are.
// Errors say the configuration uses awscc without saying where they are.
// The library, which caches schemas and owns provider instances, is closed
// when the command ends.
func (m *Meta) providerLibrary(cfg *configs.Module) (*providers.Library, diags.Diagnostics) {
	tp := builtin.NewTerraformProvider()
	tp.Dir = m.Dir
	tp.RemoteStateEncryption = m.remoteStateEncryption(cfg)
	reg := providers.Registry{
		builtin.TerraformProviderAddr: func() (providers.Interface, error) { return tp, nil },
	}
	for addr, factory := range m.Providers {
		reg[addr] = factory
	}
	var ds diags.Diagnostics
	// A dev_overrides entry for hashicorp/awscc runs that plugin (such as
	// HashiCorp's own awscc) in place of the built-in one, as an override
	// replaces any installed provider in Terraform.
	if !m.devOverridden(awscc.Addr) {
		ds = m.addAWSCC(reg, cfg)
	}
	ds = ds.Append(m.addPluginProviders(reg, cfg))
	lib := providers.NewLibrary(reg)
	m.libraries = append(m.libraries, lib)
	return lib, ds
}

// closeLibraries closes the provider libraries the command opened.
func (m *Meta) closeLibraries() {
	for _, lib := range m.libraries {
		_ = lib.Close()
	}
	m.libraries = nil
}

// funcTable returns the function table for the configuration directory.
// pure tables (planning, validation) return unknown for functions whose
// result differs on every call (timestamp, uuid, bcrypt), as Terraform
// does, so a plan never records a value apply would not reproduce.
func (m *Meta) funcTable(pure bool) map[string]function.Function {
	opts := []funcs.Option{funcs.WithPlanTimestamp(m.Now().UTC())}
	if pure {
		opts = append(opts, funcs.WithPureOnly())
	}
	return funcs.Table(m.Dir, opts...)
}

// confirm asks a yes/no question on the terminal; only "yes" approves.
func (m *Meta) confirm(question, detail string) (bool, error) {
	fmt.Fprintf(m.Stdout, "%s\n  %s\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ", m.bold(question), strings.ReplaceAll(detail, "\n", "\n  "))
	line, err := bufio.NewReader(m.Stdin).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, err
	}
	fmt.Fprintln(m.Stdout)
	return strings.TrimSpace(line) == "yes", nil
}

func (m *Meta) bold(s string) string {
	if !m.colorOn(m.Stdout) {
		return s
	}
	return "\x1b[1m" + s + "\x1b[0m"
}

func (m *Meta) green(s string) string {
	if !m.colorOn(m.Stdout) {
		return s
	}
	return "\x1b[1m\x1b[32m" + s + "\x1b[0m"
}
