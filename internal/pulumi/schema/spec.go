package schema

// Package is a Pulumi package schema document.
type Package struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"displayName,omitempty"`
	Version     string   `json:"version,omitempty"`
	Description string   `json:"description,omitempty"`
	Homepage    string   `json:"homepage,omitempty"`
	Repository  string   `json:"repository,omitempty"`
	License     string   `json:"license,omitempty"`
	Publisher   string   `json:"publisher,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`
	Meta        *Meta    `json:"meta,omitempty"`

	Config    Config              `json:"config"`
	Provider  Resource            `json:"provider"`
	Resources map[string]Resource `json:"resources"`
	Functions map[string]Function `json:"functions"`
	Types     map[string]Object   `json:"types"`
}

// Meta holds the package's module format: the regular expression whose
// first group is the module of a token's module part.
type Meta struct {
	ModuleFormat string `json:"moduleFormat"`
}

// Config is the stack configuration the provider reads (awscc:region).
type Config struct {
	Variables map[string]Property `json:"variables,omitempty"`
	Defaults  []string            `json:"defaults,omitempty"`
}

// Type is a property's type: a primitive, an array, a map, or a
// reference to a named object type or a built-in type.
type Type struct {
	Type                 string `json:"type,omitempty"`
	Items                *Type  `json:"items,omitempty"`
	AdditionalProperties *Type  `json:"additionalProperties,omitempty"`
	Ref                  string `json:"$ref,omitempty"`
}

// Property is one property of a resource, function or object type.
type Property struct {
	Type
	Description        string `json:"description,omitempty"`
	Secret             bool   `json:"secret,omitempty"`
	DeprecationMessage string `json:"deprecationMessage,omitempty"`
}

// Object is a named object type, or a function's inputs or outputs.
type Object struct {
	Description string              `json:"description,omitempty"`
	Type        string              `json:"type"`
	Properties  map[string]Property `json:"properties,omitempty"`
	Required    []string            `json:"required,omitempty"`
}

// Resource is a resource (or the provider): its outputs (properties) and
// its inputs.
type Resource struct {
	Description        string              `json:"description,omitempty"`
	Properties         map[string]Property `json:"properties,omitempty"`
	Required           []string            `json:"required,omitempty"`
	InputProperties    map[string]Property `json:"inputProperties,omitempty"`
	RequiredInputs     []string            `json:"requiredInputs,omitempty"`
	DeprecationMessage string              `json:"deprecationMessage,omitempty"`
	// IsComponent marks a component resource the provider builds
	// (Construct), which programs register as a remote component.
	IsComponent bool `json:"isComponent,omitempty"`
}

// Function is a data source: its inputs and outputs.
type Function struct {
	Description        string  `json:"description,omitempty"`
	Inputs             *Object `json:"inputs,omitempty"`
	Outputs            *Object `json:"outputs,omitempty"`
	DeprecationMessage string  `json:"deprecationMessage,omitempty"`
}
