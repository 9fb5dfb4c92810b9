package propwire

import (
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
)

// The strings that stand for an unknown value on the wire, one per type
// of the value it will be, so the receiver keeps the type. They are
// Pulumi's (plugin.Unknown*Value).
const (
	unknownBool    = "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7"
	unknownNumber  = "3eeb2bf0-c639-47a8-9e75-3b44932eb421"
	unknownString  = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
	unknownArray   = "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2"
	unknownAsset   = "030794c1-ac77-496b-92df-f27374a8bd58"
	unknownArchive = "e48ece36-62e2-4504-bad9-02848725956a"
	unknownObject  = "dd056dcd-154b-4c76-9bd3-c8f88648b5ff"
)

// unknownOf returns the unknown value a sentinel string stands for.
func unknownOf(s string) (resource.PropertyValue, bool) {
	var elem resource.PropertyValue
	switch s {
	case unknownBool:
		elem = resource.NewProperty(false)
	case unknownNumber:
		elem = resource.NewProperty(0.0)
	case unknownString:
		elem = resource.NewProperty("")
	case unknownArray:
		elem = resource.NewProperty([]resource.PropertyValue{})
	case unknownAsset:
		elem = resource.NewProperty(&asset.Asset{})
	case unknownArchive:
		elem = resource.NewProperty(&archive.Archive{})
	case unknownObject:
		elem = resource.NewProperty(resource.PropertyMap{})
	default:
		return resource.PropertyValue{}, false
	}
	return resource.MakeComputed(elem), true
}

// sentinel returns the string that stands for an unknown value whose
// element (what it will be) is elem; a null element is a null, and
// nested unknowns are looked through.
func sentinel(elem resource.PropertyValue) (string, bool) {
	switch {
	case elem.IsBool():
		return unknownBool, true
	case elem.IsNumber():
		return unknownNumber, true
	case elem.IsString():
		return unknownString, true
	case elem.IsArray():
		return unknownArray, true
	case elem.IsAsset():
		return unknownAsset, true
	case elem.IsArchive():
		return unknownArchive, true
	case elem.IsObject():
		return unknownObject, true
	case elem.IsComputed():
		return sentinel(elem.Input().Element)
	case elem.IsOutput():
		return sentinel(elem.OutputValue().Element)
	}
	return "", false
}
