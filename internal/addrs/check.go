package addrs

// Check is the address of a check block within its module.
type Check struct {
	Name string
}

// String returns the address as Terraform writes it: check.NAME.
func (c Check) String() string { return "check." + c.Name }

// Absolute returns the check in module instance m.
func (c Check) Absolute(m ModuleInstance) AbsCheck {
	return AbsCheck{Module: m, Check: c}
}

// AbsCheck is a check block in one module instance.
type AbsCheck struct {
	Module ModuleInstance
	Check  Check
}

// String returns module.NAME[KEY].check.NAME, or check.NAME in the root.
func (c AbsCheck) String() string {
	if c.Module.IsRoot() {
		return c.Check.String()
	}
	return c.Module.String() + "." + c.Check.String()
}

// ConfigString names the check's block in configuration, without module
// instance keys: what Terraform's JSON calls the check's address.
func (c AbsCheck) ConfigString() string {
	m := c.Module.Module()
	if m.IsRoot() {
		return c.Check.String()
	}
	return m.String() + "." + c.Check.String()
}

// checkKey is AbsCheck's UniqueKey.
type checkKey struct {
	module string
	name   string
}

func (checkKey) uniqueKeySigil() {}

// UniqueKey implements UniqueKeyer.
func (c AbsCheck) UniqueKey() UniqueKey {
	return checkKey{module: c.Module.String(), name: c.Check.Name}
}
