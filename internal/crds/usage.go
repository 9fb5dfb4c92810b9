package crds

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// ProviderConfigUsageKind is the kind that records one managed resource's
// use of a provider configuration: crossplane-runtime's usage tracker
// creates one per managed resource, in its namespace, so that a
// ProviderConfig in use is not deleted and its status.users counts them.
func ProviderConfigUsageKind(provider string) Kind {
	return Kind{
		Provider: provider, Group: providerGroup(provider), Version: Version,
		Kind: "ProviderConfigUsage", ListKind: "ProviderConfigUsageList",
		Plural: "providerconfigusages", Singular: "providerconfigusage",
	}
}

// ProviderConfigUsageCRD returns the CRD of ProviderConfigUsageKind: the
// object crossplane-runtime v2 writes as a TypedProviderConfigUsage
// (providerConfigRef and resourceRef at the top level, no spec).
func ProviderConfigUsageCRD(provider string) *apiextensionsv1.CustomResourceDefinition {
	str := func(d string) props { return props{Type: "string", Description: d} }
	root := props{
		Type:        "object",
		Description: "ProviderConfigUsage records that a managed resource uses a ProviderConfig or ClusterProviderConfig of the " + provider + " provider.",
		Properties: map[string]props{
			"apiVersion": str("APIVersion defines the versioned schema of this representation of an object."),
			"kind":       str("Kind is a string value representing the REST resource this object represents."),
			"metadata":   {Type: "object"},
			"providerConfigRef": {
				Type:        "object",
				Description: "The provider configuration in use.",
				Properties:  map[string]props{"kind": str("ProviderConfig or ClusterProviderConfig."), "name": str("The name of the provider configuration.")},
				Required:    []string{"kind", "name"},
			},
			"resourceRef": {
				Type:        "object",
				Description: "The managed resource using it, in this namespace.",
				Properties: map[string]props{
					"apiVersion": str("APIVersion of the managed resource."),
					"kind":       str("Kind of the managed resource."),
					"name":       str("Name of the managed resource."),
					"uid":        str("UID of the managed resource."),
				},
				Required: []string{"apiVersion", "kind", "name"},
			},
		},
		Required: []string{"providerConfigRef", "resourceRef"},
	}
	cols := []apiextensionsv1.CustomResourceColumnDefinition{
		{Name: "AGE", Type: "date", JSONPath: ".metadata.creationTimestamp"},
		{Name: "CONFIG-NAME", Type: "string", JSONPath: ".providerConfigRef.name"},
		{Name: "RESOURCE-KIND", Type: "string", JSONPath: ".resourceRef.kind"},
		{Name: "RESOURCE-NAME", Type: "string", JSONPath: ".resourceRef.name"},
	}
	crd := newCRD(ProviderConfigUsageKind(provider), apiextensionsv1.NamespaceScoped, []string{"crossplane", "provider", provider}, root, cols)
	// A usage has no status to split off.
	crd.Spec.Versions[0].Subresources = nil
	return crd
}
