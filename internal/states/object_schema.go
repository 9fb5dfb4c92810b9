package states

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// EncodeObject returns the stored form of an object of a resource with
// the given schema: marks the schema implies are left out, as Terraform
// does, and re-applied when the object is read. version is the schema's
// version as providers report it (int64 on the wire).
func EncodeObject(schema *configschema.Block, obj *Object, version int64) (*ObjectSrc, error) {
	cp := *obj
	cp.Value = schema.WithoutSchemaMarks(obj.Value)
	return cp.Encode(schema.ImpliedType(), uint64(version))
}

// DecodeObject is EncodeObject's counterpart: the object's value as the
// schema's type, with the sensitive marks the object recorded and those
// the schema implies. Every reader of a stored object whose value
// expressions may see goes through it (or through lifecycle.UpgradeState,
// which does the same for an object the provider upgrades), so that
// leaving the schema's marks out of state loses none.
func DecodeObject(schema *configschema.Block, src *ObjectSrc) (*Object, error) {
	obj, err := src.Decode(schema.ImpliedType())
	if err != nil {
		return nil, err
	}
	obj.Value = schema.MarkSensitive(obj.Value)
	return obj, nil
}

// EncodeObjectUnmarked is EncodeObject for a caller that already holds
// the object's value without marks (u) and its marks (pvm): the value is
// not walked again. Marks at paths the schema declares sensitive are left
// out, as EncodeObject does.
func EncodeObjectUnmarked(schema *configschema.Block, obj *Object, u cty.Value, pvm []cty.PathValueMarks, version int64) (*ObjectSrc, error) {
	if len(pvm) > 0 && schema.HasSensitive() {
		return EncodeObject(schema, obj, version)
	}
	src, err := EncodeValue(u, schema.ImpliedType())
	if err != nil {
		return nil, err
	}
	paths, err := sensitivePaths(pvm)
	if err != nil {
		return nil, err
	}
	return &ObjectSrc{
		SchemaVersion: uint64(version), AttrsJSON: src, AttrSensitivePaths: paths, Private: obj.Private,
		Status: obj.Status, Dependencies: obj.Dependencies, CreateBeforeDestroy: obj.CreateBeforeDestroy,
		Identity: obj.Identity,
	}, nil
}
