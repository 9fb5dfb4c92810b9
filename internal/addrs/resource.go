package addrs

import "fmt"

// ResourceMode tells a managed resource (resource block) from a data
// resource (data block) and an ephemeral resource (ephemeral block).
type ResourceMode byte

const (
	// InvalidResourceMode is the zero value; no valid address uses it.
	InvalidResourceMode ResourceMode = 0
	// ManagedResourceMode is a resource block.
	ManagedResourceMode ResourceMode = 'M'
	// DataResourceMode is a data block.
	DataResourceMode ResourceMode = 'D'
	// EphemeralResourceMode is an ephemeral block (Terraform 1.10,
	// OpenTofu 1.11): opened while a run needs it, closed at its end,
	// never in a plan or state.
	EphemeralResourceMode ResourceMode = 'E'
)

// String returns "managed", "data" or "ephemeral", the words state
// files and JSON documents use.
func (m ResourceMode) String() string {
	switch m {
	case ManagedResourceMode:
		return "managed"
	case DataResourceMode:
		return "data"
	case EphemeralResourceMode:
		return "ephemeral"
	default:
		return "invalid"
	}
}

// Resource is a resource block's address within its module, e.g.
// terraform_data.a or data.x.y.
type Resource struct {
	Mode ResourceMode
	Type string
	Name string
}

// String returns the resource's address as written in configuration.
func (r Resource) String() string {
	switch r.Mode {
	case DataResourceMode:
		return "data." + r.Type + "." + r.Name
	case EphemeralResourceMode:
		return "ephemeral." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// Instance returns the address of the resource's instance with the given key.
func (r Resource) Instance(key InstanceKey) ResourceInstance {
	return ResourceInstance{Resource: r, Key: key}
}

// Absolute places the resource in the given module instance.
func (r Resource) Absolute(m ModuleInstance) AbsResource {
	return AbsResource{Module: m, Resource: r}
}

// ImpliedProviderType returns the provider type a resource type belongs to
// when no provider is named: the part of the type name before the first
// underscore ("aws" for "aws_instance", "terraform" for "terraform_data").
func (r Resource) ImpliedProviderType() string {
	for i, c := range r.Type {
		if c == '_' {
			return r.Type[:i]
		}
	}
	return r.Type
}

// ResourceInstance is one instance of a resource within its module.
type ResourceInstance struct {
	Resource Resource
	Key      InstanceKey
}

// String returns the instance address, e.g. terraform_data.a[0].
func (r ResourceInstance) String() string {
	return r.Resource.String() + KeyString(r.Key)
}

// Absolute places the instance in the given module instance.
func (r ResourceInstance) Absolute(m ModuleInstance) AbsResourceInstance {
	return AbsResourceInstance{Module: m, Resource: r}
}

// AbsResource is a resource in a particular module instance.
type AbsResource struct {
	Module   ModuleInstance
	Resource Resource
}

// String returns the absolute address, e.g. module.a.terraform_data.b.
func (r AbsResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

// Instance returns the address of one of the resource's instances.
func (r AbsResource) Instance(key InstanceKey) AbsResourceInstance {
	return AbsResourceInstance{Module: r.Module, Resource: r.Resource.Instance(key)}
}

// UniqueKey implements UniqueKeyer.
func (r AbsResource) UniqueKey() UniqueKey {
	return resourceKey{module: r.Module.String(), res: r.Resource}
}

// Config returns the configuration object the resource is an instance of:
// the resource in its static module, whatever the module's instance keys.
func (r AbsResource) Config() ConfigResource {
	return ConfigResource{Module: r.Module.Module(), Resource: r.Resource}
}

// Less orders resource addresses as Less orders their instances: by
// module, then mode (data first), type and name.
func (r AbsResource) Less(o AbsResource) bool {
	if c := r.Module.compare(o.Module); c != 0 {
		return c < 0
	}
	return r.Resource.less(o.Resource)
}

func (r Resource) less(o Resource) bool {
	if r.Mode != o.Mode {
		return r.Mode.order() < o.Mode.order()
	}
	if r.Type != o.Type {
		return r.Type < o.Type
	}
	return r.Name < o.Name
}

// order sorts data resources first, as Terraform's state does, then
// ephemeral and managed ones.
func (m ResourceMode) order() int {
	switch m {
	case DataResourceMode:
		return 0
	case EphemeralResourceMode:
		return 1
	}
	return 2
}

// Equal reports whether two addresses are the same.
func (r AbsResource) Equal(o AbsResource) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// ConfigResource is a resource block in the configuration: a resource in a
// static module, before count, for_each or module expansion. The
// configuration graph has one vertex per ConfigResource; each expands into
// an AbsResource per module instance and then into instances.
type ConfigResource struct {
	Module   Module
	Resource Resource
}

// String returns the address as written, e.g. module.a.terraform_data.b.
func (r ConfigResource) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

// UniqueKey implements UniqueKeyer.
func (r ConfigResource) UniqueKey() UniqueKey {
	return configResourceKey{module: r.Module.String(), res: r.Resource}
}

// Absolute places the resource in one instance of its module, which must
// be an instance of r.Module.
func (r ConfigResource) Absolute(m ModuleInstance) AbsResource {
	return AbsResource{Module: m, Resource: r.Resource}
}

// Equal reports whether two addresses are the same.
func (r ConfigResource) Equal(o ConfigResource) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// InModule returns the resource r in the static module m.
func (r Resource) InModule(m Module) ConfigResource {
	return ConfigResource{Module: m, Resource: r}
}

// AbsResourceInstance is one resource instance in a particular module
// instance: the address of one object in state.
type AbsResourceInstance struct {
	Module   ModuleInstance
	Resource ResourceInstance
}

// String returns the absolute instance address.
func (r AbsResourceInstance) String() string {
	if r.Module.IsRoot() {
		return r.Resource.String()
	}
	return r.Module.String() + "." + r.Resource.String()
}

// ContainingResource returns the resource this is an instance of.
func (r AbsResourceInstance) ContainingResource() AbsResource {
	return AbsResource{Module: r.Module, Resource: r.Resource.Resource}
}

// UniqueKey implements UniqueKeyer.
func (r AbsResourceInstance) UniqueKey() UniqueKey { return r.key() }

func (r AbsResourceInstance) key() resourceInstanceKey {
	return resourceInstanceKey{module: r.Module.String(), res: r.Resource.Resource, key: r.Resource.Key}
}

// Object returns the address of the instance's current object, or of its
// deposed object dk.
func (r AbsResourceInstance) Object(dk DeposedKey) AbsResourceInstanceObject {
	return AbsResourceInstanceObject{ResourceInstance: r, DeposedKey: dk}
}

// Equal reports whether two addresses are the same.
func (r AbsResourceInstance) Equal(o AbsResourceInstance) bool {
	return r.Resource == o.Resource && r.Module.Equal(o.Module)
}

// Less orders instance addresses the way Terraform lists them: by module,
// then mode (data before managed), type, name, and key (no key first, then
// numbers numerically, then strings).
func (r AbsResourceInstance) Less(o AbsResourceInstance) bool {
	if c := r.Module.compare(o.Module); c != 0 {
		return c < 0
	}
	if a, b := r.Resource.Resource, o.Resource.Resource; a != b {
		return a.less(b)
	}
	return keyLess(r.Resource.Key, o.Resource.Key)
}

// InstanceKeyLess orders instance keys as Terraform lists instances: no
// key first, then numbers numerically, then strings.
func InstanceKeyLess(a, b InstanceKey) bool { return keyLess(a, b) }

func keyLess(a, b InstanceKey) bool {
	switch ak := a.(type) {
	case nil:
		return b != nil
	case IntKey:
		switch bk := b.(type) {
		case IntKey:
			return ak < bk
		case StringKey:
			return true
		}
		return false
	case StringKey:
		if bk, ok := b.(StringKey); ok {
			return ak < bk
		}
		return false
	}
	panic(fmt.Sprintf("unsupported instance key %T", a))
}
