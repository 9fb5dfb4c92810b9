package schema

// ModuleComponent is the generic Terraform module component: any module
// Cairn can load, run as one component resource whose children are the
// module's resource instances. Its inputs are the module's source (and
// version, for a registry source) and its variables as a map; its one
// output is the module's outputs as a map, sensitive ones secret.
func ModuleComponent() Resource {
	anyMap := Type{Type: "object", AdditionalProperties: &Type{Ref: "pulumi.json#/Any"}}
	return Resource{
		Description: "A Terraform module run by Cairn as a component: every resource instance the module declares is a child resource, planned and applied by the engine's rules.",
		IsComponent: true,
		InputProperties: map[string]Property{
			"source":  {Type: Type{Type: "string"}, Description: "The module's source: a local directory (./modules/net) or a registry or git address."},
			"version": {Type: Type{Type: "string"}, Description: "The version constraint of a registry source."},
			"inputs":  {Type: anyMap, Description: "The module's input variables by name."},
		},
		RequiredInputs: []string{"source"},
		Properties: map[string]Property{
			"outputs": {Type: anyMap, Description: "The module's outputs by name; sensitive ones are secrets."},
		},
		Required: []string{"outputs"},
	}
}
