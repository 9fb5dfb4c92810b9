package command

import (
	"context"
	"os"
	"os/signal"

	"github.com/cairn-iac/cairn/internal/pulumi/importfile"
	"github.com/cairn-iac/cairn/internal/pulumi/plugins"
)

// runPulumiImportFile lists the objects of the awscc types named (Pulumi
// type tokens or awscc type names) and writes Pulumi's bulk import file,
// to -out or standard output. awscc is configured from the AWS
// environment, as the Pulumi plugin is under an empty stack
// configuration, so the IDs are those that plugin imports by.
func runPulumiImportFile(m *Meta, args []string) int {
	fs := newFlagSet("pulumi import-file", m.Stderr)
	var schemas stringList
	var types, out string
	var limit int64
	fs.Var(&schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	fs.StringVar(&types, "types", m.Getenv("CAIRN_AWSCC_TYPES"), "Comma-separated types to load (AWS::Logs::LogGroup or awscc_logs_log_group); all by default.")
	fs.StringVar(&out, "out", "", "Write the file here instead of standard output.")
	fs.Int64Var(&limit, "limit", 0, "List at most this many objects of each type (all when 0).")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() == 0 {
		return m.errorf("No resource types", "cairn pulumi import-file takes the resource types to list, as Pulumi type tokens (awscc:logs/logGroup:LogGroup) or awscc type names.")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	f, ds := plugins.AWSCCImportFile(ctx, m.awsccSources(schemas), types, importfile.Options{Types: fs.Args(), Limit: limit})
	m.showDiags(ds)
	if ds.HasErrors() {
		return 1
	}
	if out == "" {
		_, _ = m.Stdout.Write(f.JSON())
		return 0
	}
	if err := os.WriteFile(m.absPath(out), f.JSON(), 0o600); err != nil {
		return m.errorf("Cannot write the import file", "%s.", err)
	}
	return 0
}
