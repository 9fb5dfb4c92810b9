package propval

import (
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// Converter converts values of one schema block. The zero Converter is not
// usable: Block is required.
type Converter struct {
	// Block is the schema whose implied type values have.
	Block *configschema.Block
	// RefsAsURN turns a resource reference into its URN instead of its ID.
	RefsAsURN bool
}

// ToCty converts pm, a resource's properties, to a value of the block's
// implied type. Absent properties are null; secrets come out marked
// sensitive; keys starting with "__" (Pulumi's own metadata, such as
// __defaults) are ignored. Errors are *PathError.
func (c Converter) ToCty(pm resource.PropertyMap) (cty.Value, error) {
	d := decoder{refsAsURN: c.RefsAsURN}
	return d.object(resource.NewObjectProperty(pm), c.Block.ImpliedType(), nil)
}

// FromCty converts v, a value of the block's implied type, to properties.
// The schema's sensitive attributes and every value marked sensitive come
// out as secrets; unknowns as computed; null attributes are left out. A
// null or unknown v as a whole is an error: a resource's properties are an
// object.
func (c Converter) FromCty(v cty.Value) (resource.PropertyMap, error) {
	if v.IsNull() || !v.IsKnown() {
		return nil, errorf(nil, "want a known object, got %s", describe(v))
	}
	pv, err := encodeValue(c.Block.MarkSecrets(v), c.Block.ImpliedType(), nil)
	if err != nil {
		return nil, err
	}
	return pv.ObjectValue(), nil
}

func describe(v cty.Value) string {
	switch {
	case !v.IsKnown():
		return "an unknown value"
	case v.IsNull():
		return "null"
	}
	return v.Type().FriendlyName()
}
