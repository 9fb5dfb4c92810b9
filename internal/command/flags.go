package command

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/eval"
)

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// varFlag records -var and -var-file in command-line order, which decides
// their precedence.
type varFlag struct {
	file bool
	val  string
}

type varFlags struct{ list *[]varFlag }

func (v varFlags) String() string { return "" }

type varFileFlags struct{ list *[]varFlag }

func (v varFileFlags) String() string { return "" }

func (v varFlags) Set(s string) error { *v.list = append(*v.list, varFlag{val: s}); return nil }
func (v varFileFlags) Set(s string) error {
	*v.list = append(*v.list, varFlag{file: true, val: s})
	return nil
}

// commonFlags are the options plan, apply and destroy share.
type commonFlags struct {
	vars        []varFlag
	parallelism int
	lock        bool
	lockTimeout time.Duration
	input       bool
	refresh     bool
	replace     stringList
	target      stringList
	targetFile  stringList
	exclude     stringList
	excludeFile stringList
	noColor     bool
	// refreshOnly is -refresh-only: record drift, plan no action.
	refreshOnly bool
}

// registerRun registers the options of every command that walks the
// configuration against state: variables, parallelism, locking, input and
// colour (refresh has only these).
func (c *commonFlags) registerRun(fs *flag.FlagSet) {
	fs.Var(varFlags{&c.vars}, "var", "Set a value for one of the input variables (NAME=VALUE).")
	fs.Var(varFileFlags{&c.vars}, "var-file", "Load variable values from the given file.")
	c.parallelism = defaultParallelism
	fs.Var(parallelismFlag{&c.parallelism}, "parallelism", "Limit the number of concurrent operations to `n` (default 10).")
	fs.BoolVar(&c.lock, "lock", true, "Lock the state file while the operation runs.")
	fs.DurationVar(&c.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.BoolVar(&c.input, "input", true, "Ask for input when needed.")
	fs.BoolVar(&c.noColor, "no-color", false, "Disable terminal colors.")
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	c.registerRun(fs)
	fs.BoolVar(&c.refresh, "refresh", true, "Update state from remote objects before planning.")
	fs.Var(&c.replace, "replace", "Force replacement of a resource instance (repeatable).")
	c.registerTargeting(fs)
	fs.BoolVar(&c.refreshOnly, "refresh-only", false, "Only update state (and outputs) to match remote objects; plan no action.")
}

// registerTargeting registers -target and OpenTofu's -target-file,
// -exclude and -exclude-file: the options that limit what a plan covers.
func (c *commonFlags) registerTargeting(fs *flag.FlagSet) {
	fs.Var(&c.target, "target", "Limit planning to the given resource, instance or module, and what it depends on (repeatable).")
	fs.Var(&c.targetFile, "target-file", "Like -target, for each address in the given file, one a line; # starts a comment (repeatable).")
	fs.Var(&c.exclude, "exclude", "Plan everything but the given resource, instance or module, and what depends on it (repeatable; not with -target).")
	fs.Var(&c.excludeFile, "exclude-file", "Like -exclude, for each address in the given file, one a line; # starts a comment (repeatable).")
}

// defaultParallelism is -parallelism when not given, as in Terraform.
const defaultParallelism = 10

// parallelismFlag is -parallelism, refusing zero and below as a usage
// error: no operation could ever start. Terraform 1.5.7 refuses a
// negative value ("The parallelism must be a positive value") and takes 0
// as the default; Cairn refuses both, so a typo is not silently ignored.
type parallelismFlag struct{ n *int }

func (p parallelismFlag) String() string {
	if p.n == nil {
		return strconv.Itoa(defaultParallelism)
	}
	return strconv.Itoa(*p.n)
}

func (p parallelismFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("not a whole number")
	}
	if n < 1 {
		return fmt.Errorf("the parallelism must be a positive value, not %d", n)
	}
	*p.n = n
	return nil
}

// newFlagSet returns a flag set that reports errors as values, not by
// exiting, and prints usage to w.
func newFlagSet(name string, _ io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// parseFlags reports errors itself, once.
	fs.SetOutput(io.Discard)
	// -help is answered by parseFlags, on stdout (showHelp); a usage error
	// says what was wrong and where the help is.
	fs.Usage = func() {}
	return fs
}

// noColorFlag accepts -no-color, which Terraform takes on every command,
// turning colour off as it is parsed. The commands that walk the
// configuration take it with their other options (commonFlags).
func noColorFlag(fs *flag.FlagSet, m *Meta) {
	fs.BoolFunc("no-color", "Disable terminal colors.", func(s string) error {
		off, err := strconv.ParseBool(s)
		if off {
			m.Color = false
		}
		return err
	})
}

// varOptions registers -var and -var-file on a command that reads the
// configuration or state without planning. OpenTofu 1.12 takes them on
// every such command, because the encryption block's arguments may read
// input variables; their values reach it through Meta.varFlags, and
// parseFlags checks them (a malformed -var, a missing file) as OpenTofu
// does. The commands that plan take them with their other options
// (commonFlags).
func (m *Meta) varOptions(fs *flag.FlagSet) {
	m.takesVarOptions = true
	fs.Var(varFlags{&m.varFlags}, "var", "Set a value for one of the input variables (NAME=VALUE).")
	fs.Var(varFileFlags{&m.varFlags}, "var-file", "Load variable values from the given file.")
}

// parseFlags parses args and prints a uniform error on failure.
func (m *Meta) parseFlags(fs *flag.FlagSet, args []string) bool {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			showHelp(m.Stdout, fs.Name(), fs)
			m.helpFlags = fs
			return false
		}
		fmt.Fprintf(m.Stderr, "Error: Invalid command-line option\n\n%s\n\nFor more help on using this command, run:\n  cairn %s -help\n", err, fs.Name())
		return false
	}
	if m.takesVarOptions {
		if ds := m.flagVariables(m.varFlags, map[string]eval.RawVariable{}); ds.HasErrors() {
			m.fail(ds)
			return false
		}
	}
	return true
}
