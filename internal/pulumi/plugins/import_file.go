package plugins

import (
	"context"

	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/pulumi/importfile"
)

// AWSCCImportFile lists the objects of the types opts names with awscc
// over src's types that types names (all when empty), configured as the
// Pulumi plugin is under an empty stack configuration (region,
// credentials and endpoint from the AWS environment), and returns the
// `pulumi import --file` file naming them.
func AWSCCImportFile(ctx context.Context, src cfnsources.Sources, types string, opts importfile.Options) (importfile.File, diags.Diagnostics) {
	var ds diags.Diagnostics
	p, err := awscc.Load(src, cfnsources.TypeFilter(types))
	if err != nil {
		return importfile.File{}, ds.Append(diags.Errorf("Cannot load awscc", "%s.", err))
	}
	// The provider itself, not a Library instance: the engine's wrapper
	// does not pass list resources through.
	inst, err := p.Factory()()
	if err != nil {
		return importfile.File{}, ds.Append(diags.Errorf("Cannot start awscc", "%s.", err))
	}
	defer inst.Close()
	sch := inst.GetProviderSchema(ctx)
	if ds = ds.Append(sch.Diagnostics); ds.HasErrors() {
		return importfile.File{}, ds
	}
	cfg := sch.Provider.Block.EmptyValue()
	if ds = ds.Append(inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cfg}).Diagnostics); ds.HasErrors() {
		return importfile.File{}, ds
	}
	if opts.Package == "" {
		opts.Package = "awscc"
	}
	f, fds := importfile.Build(ctx, inst, opts)
	return f, ds.Append(fds)
}
