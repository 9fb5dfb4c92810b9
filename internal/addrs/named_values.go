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

// AbsOutputValue is an output value in one module instance. Root module
// outputs are the ones state records.
type AbsOutputValue struct {
	Module      ModuleInstance
	OutputValue OutputValue
}

// String returns e.g. output.a or module.m.output.a.
func (o AbsOutputValue) String() string {
	if o.Module.IsRoot() {
		return o.OutputValue.String()
	}
	return o.Module.String() + "." + o.OutputValue.String()
}

// UniqueKey implements UniqueKeyer.
func (o AbsOutputValue) UniqueKey() UniqueKey {
	return outputValueKey{module: o.Module.String(), name: o.OutputValue.Name}
}

// Absolute places the output in module instance m.
func (v OutputValue) Absolute(m ModuleInstance) AbsOutputValue {
	return AbsOutputValue{Module: m, OutputValue: v}
}
