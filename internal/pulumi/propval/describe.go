package propval

import (
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"
)

// friendly names a cty type for an error message: "a number", "a list".
func friendly(ty cty.Type) string {
	switch {
	case ty == cty.String:
		return "a string"
	case ty == cty.Number:
		return "a number"
	case ty == cty.Bool:
		return "a bool"
	case ty.IsListType():
		return "a list"
	case ty.IsSetType():
		return "a set"
	case ty.IsMapType():
		return "a map"
	case ty.IsObjectType():
		return "an object"
	case ty.IsTupleType():
		return "a tuple"
	}
	return ty.FriendlyName()
}

// kind names what a property value holds, for the "got" part of an error.
func kind(pv resource.PropertyValue) string {
	switch {
	case pv.IsBool():
		return "a bool"
	case pv.IsNumber():
		return "a number"
	case pv.IsString():
		return "a string"
	case pv.IsArray():
		return "an array"
	case pv.IsObject():
		return "an object"
	}
	return string(pv.TypeString())
}
