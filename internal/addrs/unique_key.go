package addrs

// UniqueKey is a comparable value that stands for one address, for use as a
// map key. Two addresses of the same kind have equal keys exactly when they
// are equal, and keys of different kinds never collide: each kind of address
// has a key type of its own.
//
// The interface is sealed: only this package makes keys, so a key always
// comes from an address's UniqueKey method and never from a string or a
// struct that happens to look like one.
type UniqueKey interface {
	uniqueKeySigil()
}

// UniqueKeyer is an address that can key a map.
type UniqueKeyer interface {
	UniqueKey() UniqueKey
}

// The key types. Module paths are in their string form, which is empty for
// the root module, so the common root-module key costs only the boxing of
// a small struct.
type (
	moduleInstanceKey string
	moduleKey         string
	resourceKey       struct {
		module string
		res    Resource
	}
	configResourceKey struct {
		module string
		res    Resource
	}
	resourceInstanceKey struct {
		module string
		res    Resource
		key    InstanceKey
	}
	resourceInstanceObjectKey struct {
		instance resourceInstanceKey
		deposed  DeposedKey
	}
	providerConfigKey struct {
		module   string
		provider Provider
		alias    string
		key      InstanceKey
	}
	localValueKey struct {
		module string
		name   string
	}
)

func (moduleInstanceKey) uniqueKeySigil()         {}
func (moduleKey) uniqueKeySigil()                 {}
func (resourceKey) uniqueKeySigil()               {}
func (configResourceKey) uniqueKeySigil()         {}
func (resourceInstanceKey) uniqueKeySigil()       {}
func (resourceInstanceObjectKey) uniqueKeySigil() {}
func (providerConfigKey) uniqueKeySigil()         {}
func (localValueKey) uniqueKeySigil()             {}
