package crds

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// cfnSchemasDir returns the shared CloudFormation schema corpus
// (CAIRN_CFN_SCHEMAS, else ../../../shared/cfn-schemas from this
// package), or "" when it is absent.
func cfnSchemasDir() string {
	dir := os.Getenv("CAIRN_CFN_SCHEMAS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "cfn-schemas")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

// corpusSchema returns the awscc provider's schema over the whole corpus;
// the test skips when the corpus is absent.
func corpusSchema(tb testing.TB) providers.GetProviderSchemaResponse {
	tb.Helper()
	dir := cfnSchemasDir()
	if dir == "" {
		tb.Skip("no CloudFormation schema corpus (set CAIRN_CFN_SCHEMAS)")
	}
	p, err := awscc.New(dir)
	if err != nil {
		tb.Fatal(err)
	}
	inst, err := p.Factory()()
	if err != nil {
		tb.Fatal(err)
	}
	resp := inst.GetProviderSchema(context.Background())
	if resp.Diagnostics.HasErrors() {
		tb.Fatal(resp.Diagnostics.Err())
	}
	return resp
}

// validateCRD validates crd as the API server would on create: the
// structural-schema rules, then the whole CRD object (names, printer
// columns, defaults, CEL rules compiled and their cost estimated).
func validateCRD(crd *apiextensionsv1.CustomResourceDefinition) error {
	var internal apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, &internal, nil); err != nil {
		return fmt.Errorf("%s: converting: %w", crd.Name, err)
	}
	// With one version, conversion hoists its schema to spec.validation.
	v := internal.Spec.Validation
	if v == nil {
		v = internal.Spec.Versions[0].Schema
	}
	s, err := structuralschema.NewStructural(v.OpenAPIV3Schema)
	if err != nil {
		return fmt.Errorf("%s: not structural: %w", crd.Name, err)
	}
	if errs := structuralschema.ValidateStructural(field.NewPath("openAPIV3Schema"), s); len(errs) > 0 {
		return fmt.Errorf("%s: structural schema: %w", crd.Name, errs.ToAggregate())
	}
	// The API server validates a CRD with its stored versions set.
	internal.Status.StoredVersions = []string{Version}
	if errs := validation.ValidateCustomResourceDefinition(context.Background(), &internal); len(errs) > 0 {
		return fmt.Errorf("%s: invalid CRD: %w", crd.Name, errs.ToAggregate())
	}
	return nil
}

// TestCorpusCRDs generates the CRD of every awscc type of the corpus and
// validates each as the API server would; CRD names must be distinct.
func TestCorpusCRDs(t *testing.T) {
	resp := corpusSchema(t)
	names := make([]string, 0, len(resp.ResourceTypes))
	for n := range resp.ResourceTypes {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("%d resource types", len(names))
	seen := map[string]string{}
	largest, largestName, overAnnotation, total := 0, "", 0, 0
	for _, n := range names {
		k, err := KindFor("awscc", n)
		if err != nil {
			t.Errorf("KindFor: %v", err)
			continue
		}
		if other, dup := seen[k.CRDName()]; dup {
			t.Errorf("%s and %s both make CRD %s", other, n, k.CRDName())
		}
		seen[k.CRDName()] = n
		crd, err := Generate(k, resp.ResourceTypes[n])
		if err != nil {
			t.Errorf("Generate: %v", err)
			continue
		}
		if err := validateCRD(crd); err != nil {
			t.Error(err)
		}
		size := jsonSize(t, crd)
		total += size
		if size > etcdRequestLimit {
			t.Errorf("%s: %d bytes of JSON, over etcd's default request limit (%d)", crd.Name, size, etcdRequestLimit)
		}
		if size > largest {
			largest, largestName = size, crd.Name
		}
		if size > lastAppliedLimit {
			overAnnotation++
		}
	}
	t.Logf("compact JSON: %d bytes in all; largest %s, %d bytes; %d over kubectl's client-side apply limit (%d)",
		total, largestName, largest, overAnnotation, lastAppliedLimit)
	pcs, err := ProviderConfigCRDs("awscc", resp.Provider)
	if err != nil {
		t.Fatal(err)
	}
	for _, crd := range pcs {
		if err := validateCRD(crd); err != nil {
			t.Error(err)
		}
	}
}

const (
	// etcdRequestLimit is etcd's default --max-request-bytes (1.5 MiB): a
	// larger CRD cannot be stored.
	etcdRequestLimit = 1572864
	// lastAppliedLimit is the size of annotations (256 KiB): kubectl's
	// client-side apply keeps the whole object in one, so larger CRDs
	// need server-side apply.
	lastAppliedLimit = 262144
)

func jsonSize(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition) int {
	t.Helper()
	data, err := json.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	return len(data)
}

// BenchmarkCorpusCRDs generates the CRDs of every awscc type of the
// corpus (generate), and renders them as YAML too (yaml), reporting the
// total YAML size.
func BenchmarkCorpusCRDs(b *testing.B) {
	resp := corpusSchema(b)
	for _, render := range []bool{false, true} {
		name := map[bool]string{false: "generate", true: "yaml"}[render]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				total := 0
				for n, s := range resp.ResourceTypes {
					k, err := KindFor("awscc", n)
					if err != nil {
						b.Fatal(err)
					}
					crd, err := Generate(k, s)
					if err != nil {
						b.Fatal(err)
					}
					if !render {
						continue
					}
					data, err := MarshalYAML(crd)
					if err != nil {
						b.Fatal(err)
					}
					total += len(data)
				}
				if render {
					b.ReportMetric(float64(total)/(1<<20), "MiB-yaml")
				}
			}
		})
	}
}
