package states

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/valjson"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// ObjectStatus is Ready or Tainted.
type ObjectStatus byte

const (
	// ObjectReady is a normal object.
	ObjectReady ObjectStatus = 'R'
	// ObjectTainted is an object that must be replaced on the next plan
	// (a create that failed part way, or one marked by the user).
	ObjectTainted ObjectStatus = 'T'
)

// ObjectSrc is one remote object in its stored form. Once recorded in a
// State it is never mutated, so snapshots can share it.
type ObjectSrc struct {
	SchemaVersion uint64
	// AttrsJSON is the object's value as JSON, unmarked.
	AttrsJSON []byte
	// AttrSensitivePaths are the paths whose values were marked sensitive.
	AttrSensitivePaths []cty.Path
	Private            []byte
	Status             ObjectStatus
	// Dependencies are the resources this object's configuration referred
	// to when it was last applied; destroy ordering uses them once the
	// configuration is gone.
	Dependencies        []addrs.AbsResource
	CreateBeforeDestroy bool
	Identity            Identity
}

// Object is a decoded object: its value with sensitive marks applied.
type Object struct {
	Value               cty.Value
	Private             []byte
	Status              ObjectStatus
	Dependencies        []addrs.AbsResource
	CreateBeforeDestroy bool
	Identity            Identity
}

// Decode returns the object's value as type ty, with sensitive marks
// re-applied. It fails when the stored JSON does not conform to ty (the
// schema changed without a version bump, or the file was edited).
func (o *ObjectSrc) Decode(ty cty.Type) (*Object, error) {
	v, err := valjson.Unmarshal(o.AttrsJSON, ty)
	if err != nil {
		return nil, fmt.Errorf("decoding stored attributes: %w", err)
	}
	return &Object{
		Value:               o.WithRecordedMarks(v),
		Private:             o.Private,
		Status:              o.Status,
		Dependencies:        o.Dependencies,
		CreateBeforeDestroy: o.CreateBeforeDestroy,
		Identity:            o.Identity,
	}, nil
}

// WithRecordedMarks returns v, a value of the object (decoded, or
// upgraded by its provider), with the sensitive mark at every path the
// object recorded (AttrSensitivePaths). Marks the schema implies are not
// recorded (EncodeObject leaves them out); the reader applies them.
func (o *ObjectSrc) WithRecordedMarks(v cty.Value) cty.Value {
	if len(o.AttrSensitivePaths) == 0 {
		return v
	}
	pvm := make([]cty.PathValueMarks, len(o.AttrSensitivePaths))
	for i, p := range o.AttrSensitivePaths {
		pvm[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(configschema.SensitiveMark)}
	}
	return v.MarkWithPaths(pvm)
}

// Encode returns the stored form of the object with the given schema
// version. The value must be wholly known; the only mark allowed is the
// sensitive mark, recorded as paths.
func (o *Object) Encode(ty cty.Type, schemaVersion uint64) (*ObjectSrc, error) {
	val, pvm := o.Value.UnmarkDeepWithPaths()
	paths, err := sensitivePaths(pvm)
	if err != nil {
		return nil, err
	}
	src, err := EncodeValue(val, ty)
	if err != nil {
		return nil, err
	}
	return &ObjectSrc{
		SchemaVersion:       schemaVersion,
		AttrsJSON:           src,
		AttrSensitivePaths:  paths,
		Private:             o.Private,
		Status:              o.Status,
		Dependencies:        o.Dependencies,
		CreateBeforeDestroy: o.CreateBeforeDestroy,
		Identity:            o.Identity,
	}, nil
}

// sensitivePaths returns the paths of a value's marks, as a stored
// object records them. The sensitive mark is the only one state can
// hold; any other is an error rather than silently dropped.
func sensitivePaths(pvm []cty.PathValueMarks) ([]cty.Path, error) {
	var paths []cty.Path
	for _, p := range pvm {
		for m := range p.Marks {
			if m != configschema.SensitiveMark {
				return nil, fmt.Errorf("value at %s has unsupported mark %#v", diags.FormatPath(p.Path), m)
			}
		}
		paths = append(paths, p.Path)
	}
	return paths, nil
}

// EncodeValue returns the stored JSON form of an unmarked, wholly known
// value of type ty.
func EncodeValue(v cty.Value, ty cty.Type) ([]byte, error) {
	if !v.IsWhollyKnown() {
		return nil, fmt.Errorf("value contains unknown values and cannot be stored")
	}
	src, err := valjson.Marshal(v, ty)
	if err != nil {
		return nil, fmt.Errorf("encoding attributes: %w", err)
	}
	return src, nil
}
