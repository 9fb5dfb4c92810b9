//go:build ignore

// Command pulumi-schema-check validates a Pulumi package schema the way
// Pulumi's own tooling does before generating SDKs: against the package
// metaschema, then by binding every type, resource and function. It reads
// the schema from the file named by its argument (or stdin), prints one
// line per diagnostic and exits 1 when any is an error.
//
// It is not part of Cairn's module: scripts/install-pulumi.sh builds it in
// the wrapper module that builds the Pulumi CLI, because Pulumi's pkg
// module cannot be required by Cairn's (see that script).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func main() {
	in := io.Reader(os.Stdin)
	if len(os.Args) > 1 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fail(err)
		}
		defer f.Close()
		in = f
	}
	var spec schema.PackageSpec
	dec := json.NewDecoder(in)
	if err := dec.Decode(&spec); err != nil {
		fail(fmt.Errorf("decoding the package schema: %w", err))
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		fail(err)
	}
	for _, d := range diags {
		fmt.Println(d.Error())
	}
	if diags.HasErrors() {
		os.Exit(1)
	}
	fmt.Printf("ok: package %s, %d resources, %d functions, %d types\n",
		pkg.Name, len(pkg.Resources), len(pkg.Functions), len(pkg.Types))
}

// noLoader refuses to load other packages: a Cairn package schema refers
// to none (pulumi.json's built-in types need no loader).
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s: a Cairn schema refers to no other package", pkg)
}

func (noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s: a Cairn schema refers to no other package", d.Name)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pulumi-schema-check:", err)
	os.Exit(2)
}
