package plugin

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Values cross the wire as DynamicValue messages holding the bytes
// tfproto6 already encoded (cty msgpack with the schema's implied type),
// so the client copies bytes and never re-encodes a value.

// putValue fills the DynamicValue field name from dv; a nil dv leaves the
// field unset, which the provider reads as null.
func putValue(x message, name string, dv *tfprotov6.DynamicValue) {
	if dv == nil {
		return
	}
	m := x.mutable(name)
	if !m.valid() {
		return
	}
	m.setBytes("msgpack", dv.MsgPack)
	m.setBytes("json", dv.JSON)
}

// value reads the DynamicValue field name; nil when the provider sent
// none, which tfproto6 decodes as null.
func value(x message, name string) *tfprotov6.DynamicValue {
	m := x.msg(name)
	if !m.valid() {
		return nil
	}
	return &tfprotov6.DynamicValue{MsgPack: m.bytes("msgpack"), JSON: m.bytes("json")}
}

// putRawState fills a RawState field from stored state. Only the JSON form
// is sent: Cairn's state, like Terraform's since 0.12, has no flatmap.
func putRawState(x message, name string, rs *tfprotov6.RawState) {
	if rs == nil {
		return
	}
	x.mutable(name).setBytes("json", rs.JSON)
}
