// Package crds maps a Cairn provider's schemas to Kubernetes: the API
// group and kind of each resource type, the CustomResourceDefinition that
// serves it as a Crossplane v2 namespaced managed resource, the
// ProviderConfig kinds, and the codec between a managed resource's JSON
// (spec.forProvider, status.atProvider, connection details) and the cty
// values the engine works with.
//
// It knows provider schemas (internal/providers, internal/configschema)
// and Kubernetes API types; it must not know the reconciler, a client, a
// particular provider or the command line. Everything here is a pure
// function of its arguments, so the command that writes CRDs and the
// controller that serves them agree by construction.
//
// Imports:
//
//	deny internal/... # crds imports no engine package but lifecycle, providers and addrs (and the schemas, diagnostics, marks and state objects they speak in)
//	allow internal/lifecycle internal/providers internal/addrs
//	allow internal/configschema internal/diags internal/marks internal/states
//	allow internal/fieldname # the snake_case to camelCase naming both front ends share
//	deny k8s.io/client-go/... sigs.k8s.io/... github.com/crossplane/... # pure functions: no client, no controller
package crds
