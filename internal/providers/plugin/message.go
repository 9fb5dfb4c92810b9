package plugin

import (
	"google.golang.org/protobuf/reflect/protoreflect"
)

// message is the typed view of one dynamic protobuf message, the only
// place fields are looked up by name. A field the message's protocol
// version does not have reads as its zero value and ignores writes, so one
// mapping serves protocols 5 and 6. The zero message (m == nil) stands for
// an absent message: every read returns a zero value.
type message struct {
	m protoreflect.Message
}

func (x message) valid() bool { return x.m != nil && x.m.IsValid() }

// field returns the named field, or nil when this message has none.
func (x message) field(name string) protoreflect.FieldDescriptor {
	if x.m == nil {
		return nil
	}
	return x.m.Descriptor().Fields().ByName(protoreflect.Name(name))
}

// get returns a set field's value; ok is false for an unset or unknown
// field.
func (x message) get(name string) (protoreflect.Value, bool) {
	fd := x.field(name)
	if fd == nil || !x.m.Has(fd) {
		return protoreflect.Value{}, false
	}
	return x.m.Get(fd), true
}

// has reports whether a field is set; for a oneof member, whether it is
// the chosen one, even when it holds its zero value.
func (x message) has(name string) bool {
	fd := x.field(name)
	return fd != nil && x.m.Has(fd)
}

func (x message) str(name string) string {
	if v, ok := x.get(name); ok {
		return v.String()
	}
	return ""
}

func (x message) bytes(name string) []byte {
	if v, ok := x.get(name); ok {
		return v.Bytes()
	}
	return nil
}

func (x message) boolean(name string) bool {
	v, ok := x.get(name)
	return ok && v.Bool()
}

func (x message) int(name string) int64 {
	if v, ok := x.get(name); ok {
		return v.Int()
	}
	return 0
}

func (x message) enum(name string) protoreflect.EnumNumber {
	if v, ok := x.get(name); ok {
		return v.Enum()
	}
	return 0
}

// msg returns a nested message, or the zero message when it is unset.
func (x message) msg(name string) message {
	if v, ok := x.get(name); ok {
		return message{v.Message()}
	}
	return message{}
}

// list returns the elements of a repeated message field.
func (x message) list(name string) []message {
	v, ok := x.get(name)
	if !ok {
		return nil
	}
	l := v.List()
	out := make([]message, l.Len())
	for i := range out {
		out[i] = message{l.Get(i).Message()}
	}
	return out
}

// msgMap returns a map<string, Message> field.
func (x message) msgMap(name string) map[string]message {
	v, ok := x.get(name)
	if !ok {
		return nil
	}
	out := make(map[string]message, v.Map().Len())
	v.Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
		out[k.String()] = message{v.Message()}
		return true
	})
	return out
}

// set writes a scalar field; a zero value or an unknown field is skipped,
// as proto3 would not send it anyway.
func (x message) set(name string, v protoreflect.Value) {
	if fd := x.field(name); fd != nil {
		x.m.Set(fd, v)
	}
}

func (x message) setStr(name, s string) {
	if s != "" {
		x.set(name, protoreflect.ValueOfString(s))
	}
}

func (x message) setBytes(name string, b []byte) {
	if b != nil {
		x.set(name, protoreflect.ValueOfBytes(b))
	}
}

func (x message) setInt(name string, i int64) {
	if i != 0 {
		x.set(name, protoreflect.ValueOfInt64(i))
	}
}

// mutable returns a nested message to fill in, creating it; the zero
// message when this message has no such field.
func (x message) mutable(name string) message {
	fd := x.field(name)
	if fd == nil {
		return message{}
	}
	return message{x.m.Mutable(fd).Message()}
}

// appendMsg appends a new element to a repeated message field and returns
// it to fill in; the zero message when this message has no such field.
func (x message) appendMsg(name string) message {
	fd := x.field(name)
	if fd == nil || !fd.IsList() {
		return message{}
	}
	return message{x.m.Mutable(fd).List().AppendMutable().Message()}
}
