package plugin

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// putValidateCapabilities tells the plugin, in ValidateResourceConfig,
// that the engine takes write-only attributes (protocol 6.8 and 5.8):
// providers refuse a configuration that sets one unless the client says
// so. A plugin built before the field existed has no such field, and
// the message is left as it was.
func putValidateCapabilities(m message, c *tfprotov6.ValidateResourceConfigClientCapabilities) {
	if c == nil || !c.WriteOnlyAttributesAllowed {
		return
	}
	if caps := m.mutable("client_capabilities"); caps.valid() {
		caps.set("write_only_attributes_allowed", protoreflect.ValueOfBool(true))
	}
}
