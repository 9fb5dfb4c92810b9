package tfplugins

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-iac/cairn/internal/cfnsources"
)

// Main runs the terraform-provider-awscc process with its command-line
// arguments (the flags of "cairn provider serve awscc": -schemas DIR,
// repeatable, -types LIST and -debug; Terraform passes none) and
// returns its exit code. The schemas come from the environment as the
// CLI reads them (cfnsources.FromEnv); CAIRN_AWSCC_TYPES is -types'
// default.
func Main(args []string, getenv func(string) string, stderr io.Writer) int {
	fs := flag.NewFlagSet("terraform-provider-awscc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var schemas dirList
	fs.Var(&schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	types := fs.String("types", getenv(cfnsources.TypesEnv), "Comma-separated types to serve (AWS::Logs::LogGroup or awscc_logs_log_group); all by default.")
	debug := fs.Bool("debug", false, "Run in debug mode: print TF_REATTACH_PROVIDERS for Terraform to attach to, instead of being launched by it.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 1
	}
	if fs.NArg() > 0 {
		return report(stderr, &Problem{"Unexpected argument", fmt.Sprintf("terraform-provider-awscc takes only flags, not %q.", fs.Arg(0))})
	}
	cfg := Config{Sources: cfnsources.FromEnv(getenv, cfnsources.InWorkingDir, schemas...), Types: *types, Debug: *debug, Getenv: getenv}
	if err := ServeAWSCC(cfg); err != nil {
		return report(stderr, err)
	}
	return 0
}

// report writes err as the CLI writes an error diagnostic and returns
// the exit code 1.
func report(stderr io.Writer, err error) int {
	var p *Problem
	if errors.As(err, &p) {
		fmt.Fprintf(stderr, "Error: %s\n\n%s\n", p.Summary, p.Detail)
	} else {
		fmt.Fprintf(stderr, "Error: %s\n", err)
	}
	return 1
}

// dirList is a repeatable flag.
type dirList []string

func (l *dirList) String() string     { return strings.Join(*l, ",") }
func (l *dirList) Set(v string) error { *l = append(*l, v); return nil }
