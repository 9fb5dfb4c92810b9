package cfnschema

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// modifierKit holds the framework's stock plan modifiers for one value kind.
type modifierKit[M any] struct {
	useStateForUnknown  func() M
	requiresReplace     func() M
	requiresReplaceIfCf func() M
}

// modifiers lists an attribute's plan modifiers in awscc's order: the
// multiset or default modifier first (either may settle the planned value),
// then UseStateForUnknown, then replacement.
func modifiers[M any](a *Attribute, kit modifierKit[M], first ...M) []M {
	out := first
	if a.defaultValue != nil {
		out = append(out, any(defaultModifier{a.defaultValue}).(M))
	}
	if a.UseStateForUnknown {
		out = append(out, kit.useStateForUnknown())
	}
	switch a.Replace {
	case RequiresReplace:
		out = append(out, kit.requiresReplace())
	case RequiresReplaceIfConfigured:
		out = append(out, kit.requiresReplaceIfCf())
	}
	return out
}

func stringModifiers(a *Attribute) []planmodifier.String {
	return modifiers(a, modifierKit[planmodifier.String]{
		stringplanmodifier.UseStateForUnknown, stringplanmodifier.RequiresReplace, stringplanmodifier.RequiresReplaceIfConfigured})
}

func int64Modifiers(a *Attribute) []planmodifier.Int64 {
	return modifiers(a, modifierKit[planmodifier.Int64]{
		int64planmodifier.UseStateForUnknown, int64planmodifier.RequiresReplace, int64planmodifier.RequiresReplaceIfConfigured})
}

func float64Modifiers(a *Attribute) []planmodifier.Float64 {
	return modifiers(a, modifierKit[planmodifier.Float64]{
		float64planmodifier.UseStateForUnknown, float64planmodifier.RequiresReplace, float64planmodifier.RequiresReplaceIfConfigured})
}

func boolModifiers(a *Attribute) []planmodifier.Bool {
	return modifiers(a, modifierKit[planmodifier.Bool]{
		boolplanmodifier.UseStateForUnknown, boolplanmodifier.RequiresReplace, boolplanmodifier.RequiresReplaceIfConfigured})
}

func objectModifiers(a *Attribute) []planmodifier.Object {
	return modifiers(a, modifierKit[planmodifier.Object]{
		objectplanmodifier.UseStateForUnknown, objectplanmodifier.RequiresReplace, objectplanmodifier.RequiresReplaceIfConfigured})
}

func listModifiers(a *Attribute) []planmodifier.List {
	var first []planmodifier.List
	if a.Type.ListMode == ListMultiset {
		first = append(first, multiset{elem: a.Type.Elem})
	}
	return modifiers(a, modifierKit[planmodifier.List]{
		listplanmodifier.UseStateForUnknown, listplanmodifier.RequiresReplace, listplanmodifier.RequiresReplaceIfConfigured}, first...)
}

func setModifiers(a *Attribute) []planmodifier.Set {
	return modifiers(a, modifierKit[planmodifier.Set]{
		setplanmodifier.UseStateForUnknown, setplanmodifier.RequiresReplace, setplanmodifier.RequiresReplaceIfConfigured})
}

func mapModifiers(a *Attribute) []planmodifier.Map {
	return modifiers(a, modifierKit[planmodifier.Map]{
		mapplanmodifier.UseStateForUnknown, mapplanmodifier.RequiresReplace, mapplanmodifier.RequiresReplaceIfConfigured})
}
