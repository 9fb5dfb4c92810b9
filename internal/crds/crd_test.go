package crds

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// TestGenerateGolden renders the CRDs of a few built-in awscc types (one
// with write-only, hence sensitive, properties) and the provider's
// configuration kinds, and checks each as the API server would.
func TestGenerateGolden(t *testing.T) {
	resp := builtinSchema(t, "AWS::Logs::LogGroup", "AWS::SecretsManager::Secret", "AWS::SecretsManager::ResourcePolicy")
	for _, typeName := range []string{"awscc_logs_log_group", "awscc_secretsmanager_secret", "awscc_secretsmanager_resource_policy"} {
		t.Run(typeName, func(t *testing.T) {
			k, err := KindFor("awscc", typeName)
			if err != nil {
				t.Fatal(err)
			}
			crd, err := Generate(k, resp.ResourceTypes[typeName])
			if err != nil {
				t.Fatal(err)
			}
			if err := validateCRD(crd); err != nil {
				t.Fatal(err)
			}
			golden(t, typeName+".yaml", toYAML(t, crd))
		})
	}
	t.Run("provider config", func(t *testing.T) {
		crds, err := ProviderConfigCRDs("awscc", resp.Provider)
		if err != nil {
			t.Fatal(err)
		}
		var out []byte
		for _, crd := range crds {
			if err := validateCRD(crd); err != nil {
				t.Fatal(err)
			}
			out = append(append(out, "---\n"...), toYAML(t, crd)...)
		}
		usage := ProviderConfigUsageCRD("awscc")
		if err := validateCRD(usage); err != nil {
			t.Fatal(err)
		}
		out = append(append(out, "---\n"...), toYAML(t, usage)...)
		golden(t, "awscc_providerconfig.yaml", out)
	})
}

func toYAML(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition) []byte {
	t.Helper()
	data, err := MarshalYAML(crd)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// testBlock is a schema with every form the CRD and the codec handle:
// primitives, collections, maps, dynamic values, nested attributes,
// nested blocks, and required, computed and sensitive attributes.
func testBlock() *configschema.Block {
	return &configschema.Block{
		Description: "A test resource.",
		Attributes: map[string]*configschema.Attribute{
			"name":        {Type: cty.String, Required: true, Description: "The name."},
			"namespace":   {Type: cty.String, Required: true, Description: "A CEL reserved word."},
			"size":        {Type: cty.Number, Optional: true},
			"enabled":     {Type: cty.Bool, Optional: true, Computed: true},
			"tags":        {Type: cty.Map(cty.String), Optional: true},
			"zones":       {Type: cty.Set(cty.String), Optional: true},
			"ports":       {Type: cty.List(cty.Number), Optional: true},
			"document":    {Type: cty.DynamicPseudoType, Optional: true},
			"arn":         {Type: cty.String, Computed: true},
			"password":    {Type: cty.String, Required: true, Sensitive: true},
			"keys":        {Type: cty.List(cty.String), Optional: true, Sensitive: true},
			"secret_out":  {Type: cty.String, Computed: true, Sensitive: true},
			"counts":      {Type: cty.Map(cty.Number), Computed: true, Sensitive: true},
			"origin_conf": {Type: cty.Object(map[string]cty.Type{"host_name": cty.String, "port": cty.Number}), Optional: true},
			"rules": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingList, Attributes: map[string]*configschema.Attribute{
				"port":     {Type: cty.Number, Required: true},
				"protocol": {Type: cty.String, Optional: true},
				"rule_id":  {Type: cty.String, Computed: true},
				"token":    {Type: cty.String, Optional: true, Sensitive: true},
			}}},
			"logging": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
				"bucket": {Type: cty.String, Optional: true},
			}}},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"filter": {Nesting: configschema.NestingSet, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"values": {Type: cty.Set(cty.String), Optional: true},
			}}},
			"labels": {Nesting: configschema.NestingMap, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
				"value": {Type: cty.String, Optional: true},
			}}},
		},
	}
}

func testKind(t *testing.T) Kind {
	t.Helper()
	k, err := KindFor("test", "test_things_widget")
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestGenerateTestBlock(t *testing.T) {
	crd, err := Generate(testKind(t), providers.Schema{Block: testBlock()})
	if err != nil {
		t.Fatal(err)
	}
	if err := validateCRD(crd); err != nil {
		t.Fatal(err)
	}
	golden(t, "test_things_widget.yaml", toYAML(t, crd))
}

func TestGenerateCollision(t *testing.T) {
	cases := map[string]struct {
		reason string
		block  *configschema.Block
		want   string
	}{
		"camel case": {
			reason: "an attribute already in camelCase meets its snake_case twin",
			block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"log_group": {Type: cty.String, Optional: true},
				"logGroup":  {Type: cty.String, Optional: true},
			}},
			want: `test_things_widget: log_group: JSON field "logGroup" collides with attribute logGroup`,
		},
		"secret ref": {
			reason: "a sensitive attribute's SecretRef meets another attribute",
			block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"password":            {Type: cty.String, Optional: true, Sensitive: true},
				"password_secret_ref": {Type: cty.String, Optional: true},
			}},
			want: `test_things_widget: password_secret_ref: JSON field "passwordSecretRef" collides with attribute password`,
		},
		"nested": {
			reason: "collisions inside nested objects name their path",
			block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"outer": {Optional: true, NestedType: &configschema.Object{Nesting: configschema.NestingSingle, Attributes: map[string]*configschema.Attribute{
					"a_b": {Type: cty.String, Optional: true},
					"aB":  {Type: cty.String, Optional: true},
				}}},
			}},
			want: `test_things_widget: outer.a_b: JSON field "aB" collides with attribute aB`,
		},
		"tuple": {
			reason: "a tuple has no OpenAPI form",
			block: &configschema.Block{Attributes: map[string]*configschema.Attribute{
				"pair": {Type: cty.Tuple([]cty.Type{cty.String, cty.Number}), Optional: true},
			}},
			want: `test_things_widget: pair: type tuple has no Kubernetes form`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Generate(testKind(t), providers.Schema{Block: tc.block})
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s: error %v, want %q", tc.reason, err, tc.want)
			}
		})
	}
}

// TestValidateCRDCatches makes sure the validation the corpus test relies
// on rejects what the API server would.
func TestValidateCRDCatches(t *testing.T) {
	crd, err := Generate(testKind(t), providers.Schema{Block: testBlock()})
	if err != nil {
		t.Fatal(err)
	}
	spec := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	spec.XValidations[0].Rule = "has(self.forProvider.noSuchField)"
	crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	if err := validateCRD(crd); err == nil || !strings.Contains(err.Error(), "noSuchField") {
		t.Errorf("a rule naming an unknown field: error %v, want one naming noSuchField", err)
	}
}

// TestRequiredRules evaluates the CEL rules of spec as the API server
// does: required attributes are needed only when the controller may
// create or update, from forProvider or initProvider.
func TestRequiredRules(t *testing.T) {
	crd, err := Generate(testKind(t), providers.Schema{Block: testBlock()})
	if err != nil {
		t.Fatal(err)
	}
	s := structural(t, crd)
	full := map[string]any{"name": "n", "namespace": "ns", "passwordSecretRef": map[string]any{"name": "s", "key": "k"}}
	cases := map[string]struct {
		reason string
		spec   map[string]any
		want   []string
	}{
		"all set": {
			reason: "forProvider has every required parameter",
			spec:   map[string]any{"managementPolicies": []any{"*"}, "forProvider": full},
		},
		"missing": {
			reason: "each missing required parameter is reported, sensitive ones by their SecretRef",
			spec:   map[string]any{"managementPolicies": []any{"*"}, "forProvider": map[string]any{"name": "n"}},
			want:   []string{"spec.forProvider.namespace is a required parameter", "spec.forProvider.passwordSecretRef is a required parameter"},
		},
		"from initProvider": {
			reason: "initProvider may give a required parameter",
			spec: map[string]any{"managementPolicies": []any{"Create", "Observe"}, "forProvider": map[string]any{"name": "n"},
				"initProvider": map[string]any{"namespace": "ns", "passwordSecretRef": map[string]any{"name": "s", "key": "k"}}},
		},
		"observe only": {
			reason: "an observed resource needs no parameters",
			spec:   map[string]any{"managementPolicies": []any{"Observe"}, "forProvider": map[string]any{}},
		},
		"update": {
			reason: "Update alone needs them too",
			spec:   map[string]any{"managementPolicies": []any{"Observe", "Update"}, "forProvider": map[string]any{"name": "n", "namespace": "ns"}},
			want:   []string{"spec.forProvider.passwordSecretRef is a required parameter"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj := map[string]any{"apiVersion": "things.test.m.cairn-iac.io/v1alpha1", "kind": "Widget",
				"metadata": map[string]any{"name": "w", "namespace": "default"}, "spec": tc.spec}
			v := cel.NewValidator(s, true, celconfig.PerCallLimit)
			errs, _ := v.Validate(context.Background(), field.NewPath(""), s, obj, nil, celconfig.RuntimeCELCostBudget)
			var got []string
			for _, e := range errs {
				got = append(got, e.Detail)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
}

func structural(t *testing.T, crd *apiextensionsv1.CustomResourceDefinition) *structuralschema.Structural {
	t.Helper()
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(crd.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil); err != nil {
		t.Fatal(err)
	}
	s, err := structuralschema.NewStructural(&internal)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
