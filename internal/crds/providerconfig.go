package crds

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/providers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Credential sources of a ProviderConfig's spec.credentials.source.
const (
	// CredentialsNone: the configuration is spec.configuration alone.
	CredentialsNone = "None"
	// CredentialsSecret: a Secret key holds a JSON object of provider
	// configuration attributes (snake_case), merged over
	// spec.configuration; sensitive attributes belong there.
	CredentialsSecret = "Secret"
	// CredentialsEnvironment: the provider reads the controller's
	// environment, as it does under the CLI.
	CredentialsEnvironment = "Environment"
)

// ProviderConfigCRDs returns the CRDs of a provider's ProviderConfig
// (namespaced) and ClusterProviderConfig (cluster-scoped) kinds, in that
// order. Their spec.configuration holds the non-sensitive attributes of
// the provider's configuration schema config, camelCase; credentials come
// from a Secret (see CredentialsSecret). The error names a configuration
// attribute the schema cannot express.
func ProviderConfigCRDs(provider string, config providers.Schema) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	obj, err := blockShape(config.Block)
	if err != nil {
		return nil, fmt.Errorf("%s provider configuration: %w", provider, err)
	}
	namespaced, cluster := ProviderConfigKinds(provider)
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, k := range []struct {
		kind  Kind
		scope apiextensionsv1.ResourceScope
		desc  string
	}{
		{namespaced, apiextensionsv1.NamespaceScoped, "configures the " + provider + " provider for managed resources of its namespace."},
		{cluster, apiextensionsv1.ClusterScoped, "configures the " + provider + " provider for managed resources of any namespace."},
	} {
		root := props{
			Type:        "object",
			Description: k.kind.Kind + " " + k.desc,
			Properties: map[string]props{
				"apiVersion": {Type: "string", Description: "APIVersion defines the versioned schema of this representation of an object."},
				"kind":       {Type: "string", Description: "Kind is a string value representing the REST resource this object represents."},
				"metadata":   {Type: "object"},
				"spec":       providerConfigSpecSchema(obj, k.scope == apiextensionsv1.ClusterScoped),
				"status":     providerConfigStatusSchema(),
			},
			Required: []string{"spec"},
		}
		out = append(out, newCRD(k.kind, k.scope, []string{"crossplane", "provider", provider}, root, providerConfigColumns()))
	}
	return out, nil
}

func providerConfigSpecSchema(obj *shape, cluster bool) props {
	secretRef := secretKeySelectorSchema(cluster)
	secretRef.Description = "The Secret key holding a JSON object of provider configuration attributes (snake_case), merged over configuration. Used when source is Secret."
	configuration := valueSchema(obj, "", paramsView)
	// Sensitive attributes are not written in objects: they come from the
	// credentials Secret.
	for _, m := range obj.members {
		if m.sensitive {
			delete(configuration.Properties, m.field)
		}
	}
	configuration.Description = "The provider's configuration: its non-sensitive arguments in camelCase."
	return props{
		Type:        "object",
		Description: "How to configure the provider.",
		Properties: map[string]props{
			"credentials": {
				Type:        "object",
				Description: "Where sensitive provider configuration comes from.",
				Properties: map[string]props{
					"source": {
						Type:        "string",
						Description: "None: configuration alone. Secret: secretRef's JSON object merged over configuration. Environment: the controller's environment.",
						Default:     jsonValue(`"` + CredentialsNone + `"`),
						Enum:        enumValues(CredentialsNone, CredentialsSecret, CredentialsEnvironment),
					},
					"secretRef": secretRef,
				},
			},
			"configuration": configuration,
		},
	}
}

// secretKeySelectorSchema is a reference to one key of a Secret: in the
// referring object's namespace, or in a named one for cluster-scoped
// objects.
func secretKeySelectorSchema(withNamespace bool) props {
	p := props{
		Type: "object",
		Properties: map[string]props{
			"name": {Type: "string", Description: "The name of the Secret."},
			"key":  {Type: "string", Description: "The key of the Secret's data."},
		},
		Required: []string{"key", "name"},
	}
	if withNamespace {
		p.Properties["namespace"] = props{Type: "string", Description: "The namespace of the Secret."}
		p.Required = []string{"key", "name", "namespace"}
	}
	return p
}

func providerConfigStatusSchema() props {
	return props{
		Type:        "object",
		Description: "The observed state of the provider configuration.",
		Properties: map[string]props{
			"conditions": conditionsSchema(),
			"users":      {Type: "integer", Format: "int64", Description: "The number of managed resources using this configuration."},
		},
	}
}

func providerConfigColumns() []apiextensionsv1.CustomResourceColumnDefinition {
	return []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "AGE", Type: "date", JSONPath: ".metadata.creationTimestamp"},
		{Name: "SECRET-NAME", Type: "string", JSONPath: ".spec.credentials.secretRef.name", Priority: 1},
	}
}
