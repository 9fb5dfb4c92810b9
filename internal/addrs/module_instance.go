package addrs

import (
	"slices"
	"strconv"
	"strings"
)

// ModuleInstance is the path from the root module to one instance of a
// module call. The root module is the empty (nil) path.
//
// Cairn's engine plans only the root module today; the type exists so that
// every address, state entry and plan entry already carries its module, and
// adding module calls later changes no format.
type ModuleInstance []ModuleInstanceStep

// ModuleInstanceStep is one module call and its instance key.
type ModuleInstanceStep struct {
	Name string
	Key  InstanceKey
}

// RootModuleInstance is the address of the root module.
var RootModuleInstance ModuleInstance

// IsRoot reports whether m is the root module.
func (m ModuleInstance) IsRoot() bool { return len(m) == 0 }

// String returns the module path, e.g. module.a["x"].module.b, or "" for
// the root module.
//
// The text is built in one allocation (for integer keys and plain names):
// module paths key maps throughout planning, and a deep path's text is
// long.
func (m ModuleInstance) String() string {
	if len(m) == 0 {
		return ""
	}
	size := 0
	for _, s := range m {
		size += len("module.") + len(s.Name) + 1
		switch k := s.Key.(type) {
		case IntKey:
			size += 2 + 20
		case StringKey:
			size += 4 + len(k)
		}
	}
	var b strings.Builder
	b.Grow(size)
	var num [20]byte
	for i, s := range m {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString("module.")
		b.WriteString(s.Name)
		switch k := s.Key.(type) {
		case IntKey:
			b.WriteByte('[')
			b.Write(strconv.AppendInt(num[:0], int64(k), 10))
			b.WriteByte(']')
		case nil:
		default:
			b.WriteString(k.String())
		}
	}
	return b.String()
}

// Equal reports whether both paths name the same module instance.
func (m ModuleInstance) Equal(o ModuleInstance) bool { return slices.Equal(m, o) }

// compare orders module instances as Terraform does: shorter paths
// first, then call names and keys step by step.
func (m ModuleInstance) compare(o ModuleInstance) int {
	if len(m) != len(o) {
		return len(m) - len(o)
	}
	for i := 0; i < len(m) && i < len(o); i++ {
		if m[i].Name != o[i].Name {
			return strings.Compare(m[i].Name, o[i].Name)
		}
		if m[i].Key != o[i].Key {
			if keyLess(m[i].Key, o[i].Key) {
				return -1
			}
			return 1
		}
	}
	return len(m) - len(o)
}

// UniqueKey implements UniqueKeyer.
func (m ModuleInstance) UniqueKey() UniqueKey { return moduleInstanceKey(m.String()) }

// Module returns the static path of m: its call names without keys.
func (m ModuleInstance) Module() Module {
	if len(m) == 0 {
		return RootModule
	}
	out := make(Module, len(m))
	for i, s := range m {
		out[i] = s.Name
	}
	return out
}

// Child returns the instance key of module call name inside m.
func (m ModuleInstance) Child(name string, key InstanceKey) ModuleInstance {
	out := make(ModuleInstance, len(m), len(m)+1)
	copy(out, m)
	return append(out, ModuleInstanceStep{Name: name, Key: key})
}
