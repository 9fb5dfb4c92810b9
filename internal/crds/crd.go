package crds

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/providers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Generate returns the CustomResourceDefinition that serves resource type
// k as a Crossplane v2 namespaced managed resource, with the structural
// OpenAPI v3 schema derived from s (see docs/design/crds.md). The error
// names an attribute the schema cannot express: a type with no JSON form,
// or two attributes whose JSON fields collide.
func Generate(k Kind, s providers.Schema) (*apiextensionsv1.CustomResourceDefinition, error) {
	obj, err := blockShape(s.Block)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", k.TypeName, err)
	}
	desc := ""
	if s.Block != nil {
		desc = s.Block.Description
	}
	spec := managedSpecSchema(obj)
	root := props{
		Type:        "object",
		Description: fmt.Sprintf("%s is the managed resource of %s. %s", k.Kind, k.TypeName, desc),
		Properties: map[string]props{
			"apiVersion": {Type: "string", Description: "APIVersion defines the versioned schema of this representation of an object."},
			"kind":       {Type: "string", Description: "Kind is a string value representing the REST resource this object represents."},
			"metadata":   {Type: "object"},
			"spec":       spec,
			"status":     managedStatusSchema(obj),
		},
		Required: []string{"spec"},
	}
	root.Description = strings.TrimSpace(root.Description)
	crd := newCRD(k, apiextensionsv1.NamespaceScoped, []string{"crossplane", "managed", k.Provider}, root, managedColumns())
	return crd, nil
}

// managedSpecSchema is spec: the parameters twice (forProvider, and
// initProvider for values set only at creation) and the fields every
// Crossplane managed resource has.
func managedSpecSchema(obj *shape) props {
	spec := props{
		Type:        "object",
		Description: "The desired state of the resource.",
		Properties: map[string]props{
			"forProvider":  parametersSchema(obj, "The resource's configuration: its arguments in camelCase. Sensitive ones are read from Secrets (fields ending in SecretRef)."),
			"initProvider": parametersSchema(obj, "Configuration used only when the resource is created: fields set here and not in forProvider are left to the provider afterwards (late-initialised into forProvider)."),
			"managementPolicies": {
				Type:        "array",
				Description: "Which actions the controller may take on the external resource: Observe, Create, Update, Delete, LateInitialize, or * for all.",
				Default:     jsonValue(`["*"]`),
				Items:       &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &props{Type: "string", Enum: enumValues("Observe", "Create", "Update", "Delete", "LateInitialize", "*")}},
			},
			"providerConfigRef": {
				Type:        "object",
				Description: "The ProviderConfig (in this namespace) or ClusterProviderConfig that configures the provider for this resource.",
				Default:     jsonValue(`{"kind":"ClusterProviderConfig","name":"default"}`),
				Properties: map[string]props{
					"kind": {Type: "string", Description: "ProviderConfig or ClusterProviderConfig."},
					"name": {Type: "string", Description: "The name of the provider configuration."},
				},
				Required: []string{"kind", "name"},
			},
			"writeConnectionSecretToRef": {
				Type:        "object",
				Description: "A Secret in this namespace to write the resource's connection details to: its sensitive attributes, keyed attribute.<name>.",
				Properties:  map[string]props{"name": {Type: "string", Description: "The name of the Secret."}},
				Required:    []string{"name"},
			},
		},
		Required: []string{"forProvider"},
	}
	spec.XValidations = requiredRules(obj)
	return spec
}

// requiredRules are the CEL rules that make required attributes
// required where Crossplane makes them so: only when the controller may
// create or update the resource (an observe-only resource needs no
// arguments), and satisfied by forProvider or initProvider. OpenAPI's
// required cannot say either.
func requiredRules(obj *shape) apiextensionsv1.ValidationRules {
	var rules apiextensionsv1.ValidationRules
	for _, m := range obj.members {
		if !m.required {
			continue
		}
		field := m.field
		if m.sensitive {
			field += secretRefSuffix
		}
		id := celIdentifier(field)
		rules = append(rules, apiextensionsv1.ValidationRule{
			Rule: "!('*' in self.managementPolicies || 'Create' in self.managementPolicies || 'Update' in self.managementPolicies) || " +
				"has(self.forProvider." + id + ") || (has(self.initProvider) && has(self.initProvider." + id + "))",
			Message: "spec.forProvider." + field + " is a required parameter",
		})
	}
	return rules
}

// celIdentifier escapes a JSON field for CEL as Kubernetes does: reserved
// words become __word__ and a double underscore __underscores__. Field
// names hold only letters, digits and underscores, so no other escape
// applies.
func celIdentifier(field string) string {
	switch field {
	case "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function",
		"if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while":
		return "__" + field + "__"
	}
	return strings.ReplaceAll(field, "__", "__underscores__")
}

// managedStatusSchema is status: the observed attributes and the
// conditions crossplane-runtime writes.
func managedStatusSchema(obj *shape) props {
	return props{
		Type:        "object",
		Description: "The observed state of the resource.",
		Properties: map[string]props{
			"atProvider":         observationSchema(obj, "The resource's attributes as last observed, sensitive ones left out (they are connection details)."),
			"conditions":         conditionsSchema(),
			"observedGeneration": {Type: "integer", Format: "int64", Description: "The generation the conditions were last set for."},
		},
	}
}

// conditionsSchema is the list of Crossplane conditions, a map list keyed
// by type so that server-side apply merges them.
func conditionsSchema() props {
	cond := props{
		Type:        "object",
		Description: "A condition of the resource: Ready or Synced, with the reason for its status.",
		Properties: map[string]props{
			"type":               {Type: "string", Description: "Type of the condition: Ready, Synced, ..."},
			"status":             {Type: "string", Description: "Status of the condition: True, False or Unknown."},
			"reason":             {Type: "string", Description: "A CamelCase reason for the condition's last transition."},
			"message":            {Type: "string", Description: "A human-readable message with details about the transition."},
			"lastTransitionTime": {Type: "string", Format: "date-time", Description: "When the condition last changed status."},
			"observedGeneration": {Type: "integer", Format: "int64", Description: "The generation the condition was set for."},
		},
		Required: []string{"lastTransitionTime", "reason", "status", "type"},
	}
	return props{
		Type:         "array",
		Description:  "Conditions of the resource.",
		Items:        &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &cond},
		XListType:    ptr("map"),
		XListMapKeys: []string{"type"},
	}
}

func managedColumns() []apiextensionsv1.CustomResourceColumnDefinition {
	return []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "READY", Type: "string", JSONPath: `.status.conditions[?(@.type=='Ready')].status`},
		{Name: "SYNCED", Type: "string", JSONPath: `.status.conditions[?(@.type=='Synced')].status`},
		{Name: "EXTERNAL-NAME", Type: "string", JSONPath: `.metadata.annotations.crossplane\.io/external-name`},
		{Name: "AGE", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}
}

// newCRD assembles a CRD of one served, stored version with a status
// subresource.
func newCRD(k Kind, scope apiextensionsv1.ResourceScope, categories []string, root props, cols []apiextensionsv1.CustomResourceColumnDefinition) *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta:   metav1.TypeMeta{APIVersion: apiextensionsv1.SchemeGroupVersion.String(), Kind: "CustomResourceDefinition"},
		ObjectMeta: metav1.ObjectMeta{Name: k.CRDName()},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: k.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Kind: k.Kind, ListKind: k.ListKind, Plural: k.Plural, Singular: k.Singular, Categories: categories,
			},
			Scope: scope,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: k.Version, Served: true, Storage: true,
				Schema:                   &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &root},
				Subresources:             &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				AdditionalPrinterColumns: cols,
			}},
		},
	}
}

func jsonValue(s string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(s)} }

func enumValues(vals ...string) []apiextensionsv1.JSON {
	out := make([]apiextensionsv1.JSON, len(vals))
	for i, v := range vals {
		out[i] = apiextensionsv1.JSON{Raw: []byte(`"` + v + `"`)}
	}
	return out
}
