package crds

import (
	"github.com/zclconf/go-cty/cty"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// secretRefSuffix makes the field of a sensitive configurable attribute:
// its value is read from a Secret, never written in the object.
const secretRefSuffix = "SecretRef"

type props = apiextensionsv1.JSONSchemaProps

// parametersSchema is the OpenAPI schema of spec.forProvider (and
// spec.initProvider): the configurable members of obj, each top-level
// sensitive one as a SecretRef. Nothing is required here: a required
// attribute may come from initProvider instead, which CEL rules on spec
// check (requiredRules).
func parametersSchema(obj *shape, desc string) props {
	p := props{Type: "object", Description: desc, Properties: map[string]props{}}
	for _, m := range obj.members {
		if !m.configurable() {
			continue
		}
		if m.sensitive {
			s := secretKeySelectorSchema(false)
			s.Description = sensitiveDescription(m)
			p.Properties[m.field+secretRefSuffix] = s
			continue
		}
		p.Properties[m.field] = valueSchema(m.shape, m.description, paramsView)
	}
	return p
}

func sensitiveDescription(m *member) string {
	d := "A Secret key holding " + m.field + " (sensitive)"
	if m.shape.kind != shapePrimitive || m.shape.ty != cty.String {
		d += ", as JSON"
	}
	d += "."
	if m.description != "" {
		d += " " + m.description
	}
	return d
}

// observationSchema is the OpenAPI schema of status.atProvider: every
// member of obj that is not sensitive, at any depth.
func observationSchema(obj *shape, desc string) props {
	p := valueSchema(obj, "", observationView)
	p.Description = desc
	return p
}

// view says which members of nested objects a schema or a codec shows.
type view byte

const (
	// paramsView shows the members configuration may set.
	paramsView view = iota
	// observationView shows the members that are not sensitive.
	observationView
)

func (v view) shows(m *member) bool {
	if v == paramsView {
		return m.configurable()
	}
	return !m.sensitive
}

// valueSchema is the OpenAPI schema of a value of shape s.
func valueSchema(s *shape, desc string, v view) props {
	p := props{Description: desc}
	switch s.kind {
	case shapeDynamic:
		p.XPreserveUnknownFields = ptr(true)
	case shapePrimitive:
		p.Type = primitiveType(s.ty)
	case shapeList, shapeSet:
		p.Type = "array"
		items := valueSchema(s.elem, "", v)
		p.Items = &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &items}
		if s.kind == shapeSet && s.elem.kind == shapePrimitive {
			p.XListType = ptr("set")
		}
	case shapeMap:
		p.Type = "object"
		elem := valueSchema(s.elem, "", v)
		p.AdditionalProperties = &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &elem}
	case shapeObject:
		p.Type = "object"
		p.Properties = map[string]props{}
		for _, m := range s.members {
			if v.shows(m) {
				p.Properties[m.field] = valueSchema(m.shape, m.description, v)
			}
		}
	}
	return p
}

func primitiveType(ty cty.Type) string {
	switch ty {
	case cty.Number:
		return "number"
	case cty.Bool:
		return "boolean"
	}
	return "string"
}

func ptr[T any](v T) *T { return &v }
