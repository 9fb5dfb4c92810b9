package command

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/crds"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// runCrdGenerate implements "cairn crd generate -provider awscc [-types
// T1,T2] [-schemas DIR] [-o FILE]": the CustomResourceDefinitions that
// serve a provider's resource types as Crossplane managed resources, as
// multi-document YAML (the ProviderConfig, ClusterProviderConfig and
// ProviderConfigUsage CRDs first, then one per resource type sorted by type name), for kubectl
// apply before the controller serves them. The schemas are those
// "cairn provider serve awscc" serves: the built-in ones, the fetch cache,
// CAIRN_AWSCC_SCHEMAS and -schemas; -types names some of them
// (AWS::Logs::LogGroup or awscc_logs_log_group), all by default.
func runCrdGenerate(m *Meta, args []string) int {
	fs := newFlagSet("crd generate", m.Stderr)
	var schemas stringList
	var provider, types, out string
	fs.StringVar(&provider, "provider", "", "The provider whose resource types to serve: awscc.")
	fs.StringVar(&types, "types", m.Getenv("CAIRN_AWSCC_TYPES"), "Comma-separated types (AWS::Logs::LogGroup or awscc_logs_log_group); CAIRN_AWSCC_TYPES, else all.")
	fs.Var(&schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	fs.StringVar(&out, "o", "", "Write the YAML to this file instead of standard output.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 0 {
		return m.errorf("Unexpected argument", "cairn crd generate takes only options; got %q.", fs.Arg(0))
	}
	if provider != "awscc" {
		return m.errorf("Unknown provider", "cairn crd generate -provider names the provider whose CRDs to write; Cairn serves \"awscc\" (got %q).", provider)
	}
	schema, ds := m.awsccSchemaFor(schemas, types)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	list, err := providerCRDs(provider, schema)
	if err != nil {
		return m.errorf("Failed to generate CRDs", "%s.", err)
	}
	data, err := crdYAML(list)
	if err != nil {
		return m.errorf("Failed to generate CRDs", "%s.", err)
	}
	if out == "" {
		_, err = m.Stdout.Write(data)
	} else {
		err = os.WriteFile(m.absPath(out), data, 0o644)
	}
	if err != nil {
		return m.errorf("Failed to write CRDs", "%s.", err)
	}
	return 0
}

// awsccSchemaFor loads the awscc provider's schema over the types the
// comma-separated list names (all when empty), from the sources provider
// serve uses. A name no schema defines is an error that suggests close
// names.
func (m *Meta) awsccSchemaFor(dirs []string, types string) (providers.GetProviderSchemaResponse, diags.Diagnostics) {
	var resp providers.GetProviderSchemaResponse
	src := m.awsccSources(dirs)
	catalog, problems, err := src.Load(cfnsources.TypeFilter(types))
	if err != nil {
		return resp, diags.Diagnostics{diags.Errorf("Failed to load CloudFormation schemas", "%s.", err)}
	}
	if missing := missingTypes(catalog, types); len(missing) > 0 {
		// Load everything to suggest close names.
		if all, _, err := src.Load(nil); err == nil {
			catalog = all
		}
		var ds diags.Diagnostics
		for _, n := range missing {
			ds = ds.Append(unknownTypeDiag(catalog, n, src.Describe()))
		}
		return resp, ds
	}
	p, err := awscc.NewFromCatalog(catalog, problems, src.Describe())
	if err != nil {
		return resp, diags.Diagnostics{diags.Errorf("Failed to start the awscc provider", "%s.", err)}
	}
	inst, err := p.Factory()()
	if err != nil {
		return resp, diags.Diagnostics{diags.Errorf("Failed to start the awscc provider", "%s.", err)}
	}
	resp = inst.GetProviderSchema(context.Background())
	return resp, resp.Diagnostics
}

// missingTypes returns the names of the list that no type of catalog
// answers to.
func missingTypes(catalog *cfnschema.Catalog, list string) []string {
	var missing []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n != "" && catalog.Type(n) == nil && catalog.ByTerraformName(n) == nil && catalog.ByPluralName(n) == nil {
			missing = append(missing, n)
		}
	}
	return missing
}

// providerCRDs returns the provider-config CRDs (with the usage kind
// crossplane-runtime's tracker writes), then the CRD of each
// resource type sorted by type name. Two types that would share a CRD
// name are an error.
func providerCRDs(provider string, schema providers.GetProviderSchemaResponse) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	list, err := crds.ProviderConfigCRDs(provider, schema.Provider)
	if err != nil {
		return nil, err
	}
	list = append(list, crds.ProviderConfigUsageCRD(provider))
	owner := map[string]string{}
	for _, crd := range list {
		owner[crd.Name] = crd.Spec.Names.Kind
	}
	for _, typeName := range slices.Sorted(maps.Keys(schema.ResourceTypes)) {
		k, err := crds.KindForServed(provider, typeName)
		if err != nil {
			return nil, err
		}
		if other, dup := owner[k.CRDName()]; dup {
			return nil, fmt.Errorf("%s and %s would both be served by CRD %s", other, typeName, k.CRDName())
		}
		owner[k.CRDName()] = typeName
		crd, err := crds.Generate(k, schema.ResourceTypes[typeName])
		if err != nil {
			return nil, err
		}
		list = append(list, crd)
	}
	return list, nil
}

// crdYAML renders CRDs as one multi-document YAML stream.
func crdYAML(list []*apiextensionsv1.CustomResourceDefinition) ([]byte, error) {
	var buf bytes.Buffer
	for _, crd := range list {
		data, err := crds.MarshalYAML(crd)
		if err != nil {
			return nil, err
		}
		buf.WriteString("---\n")
		buf.Write(data)
	}
	return buf.Bytes(), nil
}
