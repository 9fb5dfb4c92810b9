package addrs

import (
	"slices"
	"strings"
)

// Module is the static path of a module in the configuration: the names of
// the module calls from the root, without instance keys. Provider
// configurations and configuration objects (ConfigResource) live in a
// Module; their run-time instances live in a ModuleInstance. The root
// module is the empty (nil) path.
type Module []string

// RootModule is the static address of the root module.
var RootModule Module

// IsRoot reports whether m is the root module.
func (m Module) IsRoot() bool { return len(m) == 0 }

// String returns the path, e.g. module.a.module.b, or "" for the root.
func (m Module) String() string {
	if len(m) == 0 {
		return ""
	}
	size := len(m) * len(".module.")
	for _, name := range m {
		size += len(name)
	}
	var b strings.Builder
	b.Grow(size)
	for i, name := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(name)
	}
	return b.String()
}

// Equal reports whether both paths name the same module.
func (m Module) Equal(o Module) bool { return slices.Equal(m, o) }

// UniqueKey implements UniqueKeyer.
func (m Module) UniqueKey() UniqueKey { return moduleKey(m.String()) }

// Child returns the path of the module call name inside m.
func (m Module) Child(name string) Module {
	out := make(Module, len(m), len(m)+1)
	copy(out, m)
	return append(out, name)
}

// UnkeyedInstance returns the module instance of m in which every call has
// no instance key: the only instance of a module whose calls use neither
// count nor for_each.
func (m Module) UnkeyedInstance() ModuleInstance {
	if len(m) == 0 {
		return RootModuleInstance
	}
	out := make(ModuleInstance, len(m))
	for i, name := range m {
		out[i] = ModuleInstanceStep{Name: name}
	}
	return out
}
