package reconciler

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
)

// Kind is one managed-resource kind the controller serves: a provider's
// resource type under its generated group, version and kind.
type Kind struct {
	GVK      schema.GroupVersionKind
	Provider addrs.Provider
	TypeName string
	Schema   providers.Schema
	// ExternalName relates the crossplane.io/external-name annotation to
	// the provider's state.
	ExternalName ExternalName
	// Async makes create, update and delete return at once and finish in
	// the background, one operation at a time per resource; the result is
	// written to the object when it ends.
	Async bool
}
