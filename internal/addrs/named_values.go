package addrs

// AbsLocalValue is a local value in one module instance.
type AbsLocalValue struct {
	Module ModuleInstance
	Local  LocalValue
}

// String returns e.g. local.a or module.m.local.a.
func (l AbsLocalValue) String() string {
	if l.Module.IsRoot() {
		return l.Local.String()
	}
	return l.Module.String() + "." + l.Local.String()
}

// UniqueKey implements UniqueKeyer.
func (l AbsLocalValue) UniqueKey() UniqueKey {
	return localValueKey{module: l.Module.String(), name: l.Local.Name}
}

// Absolute places the local value in module instance m.
func (v LocalValue) Absolute(m ModuleInstance) AbsLocalValue {
	return AbsLocalValue{Module: m, Local: v}
}
