package command

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// logLevels are the levels TF_LOG takes, as Terraform lists them.
var logLevels = []string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"}

// runLogs are the run's two loggers, as Terraform has them: core for
// Cairn's own lines (TF_LOG_CORE), provider for what provider plugins
// write on stderr (TF_LOG_PROVIDER). Both are hclog loggers that write
// nothing when their level is off.
type runLogs struct {
	core, provider hclog.Logger
	// file is TF_LOG_PATH's file, closed when the run ends.
	file *os.File
}

// newRunLogs reads the logging environment: CAIRN_LOG, else TF_LOG, sets
// both levels (JSON: TRACE, as JSON lines); TF_LOG_CORE and
// TF_LOG_PROVIDER set one each; TF_LOG_PATH appends the lines to a file
// instead of stderr. A level Terraform does not know is TRACE, with a
// warning, as Terraform does.
func newRunLogs(getenv func(string) string, stderr io.Writer) *runLogs {
	both := getenv("CAIRN_LOG")
	if both == "" {
		both = getenv("TF_LOG")
	}
	json := strings.EqualFold(both, "JSON")
	core, provider := both, both
	if v := getenv("TF_LOG_CORE"); v != "" {
		core = v
	}
	if v := getenv("TF_LOG_PROVIDER"); v != "" {
		provider = v
	}
	l := &runLogs{}
	var out io.Writer = stderr
	var warns []string
	if p := getenv("TF_LOG_PATH"); p != "" && (core != "" || provider != "") {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			warns = append(warns, fmt.Sprintf("Error opening log file %s: %s; logging to stderr", p, err))
		} else {
			l.file, out = f, f
		}
	}
	coreLevel, w := parseLogLevel(core)
	warns = append(warns, w...)
	providerLevel, w := parseLogLevel(provider)
	if provider != core {
		warns = append(warns, w...)
	}
	l.core = newLogger("", coreLevel, json, out)
	l.provider = newLogger("provider", providerLevel, json, out)
	for _, w := range warns {
		l.core.Warn(w)
	}
	return l
}

// parseLogLevel returns the hclog level of a TF_LOG value: off when
// empty or OFF, TRACE for JSON and for a value it does not know (with a
// warning).
func parseLogLevel(v string) (hclog.Level, []string) {
	switch u := strings.ToUpper(strings.TrimSpace(v)); u {
	case "", "OFF":
		return hclog.Off, nil
	case "JSON":
		return hclog.Trace, nil
	default:
		for _, l := range logLevels {
			if u == l {
				return hclog.LevelFromString(u), nil
			}
		}
		return hclog.Trace, []string{fmt.Sprintf("Invalid log level: %q. Defaulting to level: TRACE. Valid levels are: %v", v, logLevels)}
	}
}

func newLogger(name string, level hclog.Level, json bool, out io.Writer) hclog.Logger {
	if level == hclog.Off {
		return hclog.NewNullLogger()
	}
	return hclog.New(&hclog.LoggerOptions{
		Name: name, Level: level, JSONFormat: json, Output: out,
		// Terraform's line layout: timestamp, [LEVEL], message.
		TimeFormat: "2006-01-02T15:04:05.000Z0700",
	})
}

// logStart writes Terraform's first lines (its version, Go's, the
// arguments) as Cairn's. The values of -var options are left out: the
// log cannot know yet which variables are sensitive.
func (l *runLogs) logStart(args []string) {
	if !l.core.IsInfo() {
		return
	}
	l.core.Info("Cairn version: " + Version)
	l.core.Info("Go runtime version: " + runtime.Version())
	l.core.Info(fmt.Sprintf("CLI args: %#v", redactArgs(args)))
}

// redactArgs returns args with the values of -var options replaced: a
// variable's value may be a secret, and argument lists are logged.
func redactArgs(args []string) []string {
	out := make([]string, len(args))
	copy(out, args)
	for i, a := range out {
		name := strings.TrimLeft(a, "-")
		switch {
		case a != name && (name == "var") && i+1 < len(out):
			out[i+1] = redactVar(out[i+1])
		case a != name && strings.HasPrefix(name, "var="):
			out[i] = a[:len(a)-len(name)] + "var=" + redactVar(strings.TrimPrefix(name, "var="))
		}
	}
	return out
}

func redactVar(v string) string {
	name, _, _ := strings.Cut(v, "=")
	return name + "=(value hidden)"
}

// close closes TF_LOG_PATH's file.
func (l *runLogs) close() {
	if l.file != nil {
		l.file.Close()
	}
}
