package command

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/providers"
)

// Version is Cairn's version.
const Version = "0.1.0"

// Streams are the terminal the command talks to.
type Streams struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Environ lists the environment; nil means os.Environ.
	Environ func() []string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Providers are providers available besides the built-in ones, by
	// address (nil: none). Tests use it to run the command line against a
	// test provider.
	Providers providers.Registry
}

// commandFunc runs one subcommand with its arguments and returns the exit
// code.
type commandFunc func(m *Meta, args []string) int

func commands() map[string]commandFunc {
	return map[string]commandFunc{
		"init":       runInit,
		"get":        runGet,
		"validate":   runValidate,
		"plan":       runPlan,
		"apply":      runApply,
		"destroy":    runDestroy,
		"refresh":    runRefresh,
		"show":       runShow,
		"output":     runOutput,
		"graph":      runGraph,
		"import":     runImport,
		"query":      runQuery,
		"fmt":        runFmt,
		"console":    runConsole,
		"test":       runTest,
		"version":    runVersion,
		"state list": runStateList,
		"state show": runStateShow,
		"state rm":   runStateRm,
		"state mv":   runStateMv,

		"state recover": runStateRecover,
		"state pull":    runStatePull,
		"state push":    runStatePush,
		"force-unlock":  runForceUnlock,
		"taint":         runTaint,
		"untaint":       runUntaint,

		"workspace new":    runWorkspaceNew,
		"workspace select": runWorkspaceSelect,
		"workspace list":   runWorkspaceList,
		"workspace show":   runWorkspaceShow,
		"workspace delete": runWorkspaceDelete,

		"providers schema":   runProvidersSchema,
		"providers":          runProviders,
		"providers lock":     runProvidersLock,
		"providers mirror":   runProvidersMirror,
		"metadata functions": runMetadataFunctions,
		"cfn explain":        runCfnExplain,
		"cfn problems":       runCfnProblems,
		"cfn fetch":          runCfnFetch,

		"cloudcontrol serve": runCloudControlServe,
		"provider serve":     runProviderServe,
		"pulumi import-file": runPulumiImportFile,
		"controller":         runController,
		"controller observe": runControllerObserve,
		"crd generate":       runCrdGenerate,
	}
}

// Run runs the cairn command line with args (without the program name) and
// returns the process exit code.
func Run(args []string, s Streams) int {
	s = s.withDefaults()
	if line, ok := completionRequest(s.Getenv); ok {
		completeLine(s.Stdout, line)
		return 0
	}
	m := &Meta{Streams: s, Color: true, logs: newRunLogs(s.Getenv, s.Stderr)}
	defer m.logs.close()
	m.logs.logStart(args)
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch arg := args[0]; {
		case strings.HasPrefix(arg, "-chdir="):
			m.Dir = strings.TrimPrefix(arg, "-chdir=")
		case arg == "-version" || arg == "--version" || arg == "-v":
			args = []string{"version"}
			continue
		case isHelpArg(arg):
			usage(s.Stdout)
			return 0
		case arg == "-install-autocomplete" || arg == "-uninstall-autocomplete":
			return runAutocomplete(s, arg == "-install-autocomplete")
		case arg == "-no-color":
			m.Color = false
		default:
			fmt.Fprintf(s.Stderr, "Error: unknown global option %q\n\n", arg)
			usage(s.Stderr)
			return 1
		}
		args = args[1:]
	}
	if len(args) == 0 {
		usage(s.Stdout)
		return 1
	}
	if m.Dir != "" {
		if st, err := os.Stat(m.Dir); err != nil || !st.IsDir() {
			fmt.Fprintf(s.Stderr, "Error: Invalid -chdir option\n\nThe directory %q does not exist or is not a directory.\n", m.Dir)
			return 1
		}
	} else {
		m.Dir = "."
	}
	if abs, err := filepath.Abs(m.Dir); err == nil {
		m.Dir = abs
	}
	name, rest := args[0], args[1:]
	if len(rest) > 0 {
		if _, ok := commands()[name+" "+rest[0]]; ok {
			name, rest = name+" "+rest[0], rest[1:]
		}
	}
	cmd, ok := commands()[name]
	if !ok && groupHelp(io.Discard, name) {
		if len(rest) > 0 && isHelpArg(rest[0]) {
			groupHelp(s.Stdout, name)
			return 0
		}
		groupHelp(s.Stderr, name)
		return 1
	}
	if !ok {
		fmt.Fprintf(s.Stderr, "Error: unknown command %q\n\n", name)
		usage(s.Stderr)
		return 1
	}
	// -help anywhere among the arguments asks for the command's help, as
	// Terraform's command line takes it.
	for _, a := range rest {
		if isHelpArg(a) {
			rest = []string{"-help"}
			break
		}
	}
	defer m.closeLibraries()
	m.logs.core.Debug("running command", "command", name, "dir", m.Dir)
	code := cmd(m, rest)
	m.logs.core.Debug("command finished", "command", name, "exit", code)
	if m.helpFlags != nil {
		return 0
	}
	return code
}

// isHelpArg reports whether arg asks for help.
func isHelpArg(arg string) bool {
	return arg == "-help" || arg == "--help" || arg == "-h"
}

func (s Streams) withDefaults() Streams {
	if s.Stdin == nil {
		s.Stdin = os.Stdin
	}
	if s.Stdout == nil {
		s.Stdout = os.Stdout
	}
	if s.Stderr == nil {
		s.Stderr = os.Stderr
	}
	if s.Getenv == nil {
		s.Getenv = os.Getenv
	}
	if s.Environ == nil {
		s.Environ = os.Environ
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return s
}
