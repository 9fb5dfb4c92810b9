package addrs

// AbsResourceInstanceObject is one object of a resource instance: its
// current object (DeposedKey NotDeposed) or one of its deposed objects.
// It is what state records, what a planned change is about and what an
// apply operation acts on.
type AbsResourceInstanceObject struct {
	ResourceInstance AbsResourceInstance
	DeposedKey       DeposedKey
}

// String returns the instance address, followed by " (deposed object KEY)"
// for a deposed object, as Terraform names them in messages.
func (o AbsResourceInstanceObject) String() string {
	if o.DeposedKey == NotDeposed {
		return o.ResourceInstance.String()
	}
	return o.ResourceInstance.String() + " (deposed object " + string(o.DeposedKey) + ")"
}

// IsDeposed reports whether o is a deposed object.
func (o AbsResourceInstanceObject) IsDeposed() bool { return o.DeposedKey != NotDeposed }

// UniqueKey implements UniqueKeyer.
func (o AbsResourceInstanceObject) UniqueKey() UniqueKey {
	return resourceInstanceObjectKey{instance: o.ResourceInstance.key(), deposed: o.DeposedKey}
}

// Equal reports whether two addresses are the same.
func (o AbsResourceInstanceObject) Equal(other AbsResourceInstanceObject) bool {
	return o.DeposedKey == other.DeposedKey && o.ResourceInstance.Equal(other.ResourceInstance)
}

// Less orders objects by instance address, then the current object before
// deposed ones, deposed ones by key.
func (o AbsResourceInstanceObject) Less(other AbsResourceInstanceObject) bool {
	if !o.ResourceInstance.Equal(other.ResourceInstance) {
		return o.ResourceInstance.Less(other.ResourceInstance)
	}
	return o.DeposedKey < other.DeposedKey
}
