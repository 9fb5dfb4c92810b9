package statefile

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// appendFile serializes doc exactly as json.MarshalIndent(doc, "", "  ")
// would, in one pass and without reflection: on a 10,000-instance state
// that is several times faster, and Write's cost is what every apply pays
// at the end. A differential test holds the two to the same bytes.
//
// Attribute JSON is validated here, as encoding/json would, so that a bad
// ObjectSrc can never produce a corrupt state file. Output values, types
// and sensitive paths come from this package's own marshalers and are
// trusted.
func appendFile(dst []byte, doc *fileV4) ([]byte, error) {
	dst = append(dst, "{\n  \"version\": "...)
	dst = append(dst, doc.Version...)
	dst = append(dst, ",\n  \"terraform_version\": "...)
	dst = appendString(dst, doc.TerraformVersion)
	dst = append(dst, ",\n  \"serial\": "...)
	dst = strconv.AppendUint(dst, doc.Serial, 10)
	dst = append(dst, ",\n  \"lineage\": "...)
	dst = appendString(dst, doc.Lineage)
	dst = append(dst, ",\n  \"outputs\": "...)
	dst = appendOutputs(dst, doc.Outputs)
	dst = append(dst, ",\n  \"resources\": "...)
	if len(doc.Resources) == 0 {
		dst = append(dst, "[]"...)
	} else {
		dst = append(dst, '[')
		for i := range doc.Resources {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendResource(dst, &doc.Resources[i]); err != nil {
				return nil, err
			}
		}
		dst = append(dst, "\n  ]"...)
	}
	return append(dst, ",\n  \"check_results\": null\n}"...), nil
}

func appendOutputs(dst []byte, outputs map[string]outputV4) []byte {
	if len(outputs) == 0 {
		return append(dst, "{}"...)
	}
	names := make([]string, 0, len(outputs))
	for name := range outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		o := outputs[name]
		dst = append(dst, "\n    "...)
		dst = appendString(dst, name)
		dst = append(dst, ": {\n      \"value\": "...)
		dst = appendIndented(dst, o.Value, 3)
		dst = append(dst, ",\n      \"type\": "...)
		dst = appendIndented(dst, o.Type, 3)
		if o.Sensitive {
			dst = append(dst, ",\n      \"sensitive\": true"...)
		}
		dst = append(dst, "\n    }"...)
	}
	return append(dst, "\n  }"...)
}

func appendResource(dst []byte, r *resourceV4) ([]byte, error) {
	dst = append(dst, "\n    {"...)
	if r.Module != "" {
		dst = append(dst, "\n      \"module\": "...)
		dst = appendString(dst, r.Module)
		dst = append(dst, ',')
	}
	dst = append(dst, "\n      \"mode\": "...)
	dst = appendString(dst, r.Mode)
	dst = append(dst, ",\n      \"type\": "...)
	dst = appendString(dst, r.Type)
	dst = append(dst, ",\n      \"name\": "...)
	dst = appendString(dst, r.Name)
	dst = append(dst, ",\n      \"provider\": "...)
	dst = appendString(dst, r.Provider)
	dst = append(dst, ",\n      \"instances\": "...)
	if len(r.Instances) == 0 {
		dst = append(dst, "[]"...)
	} else {
		dst = append(dst, '[')
		for i := range r.Instances {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			dst = newline(dst, instanceLayout.depth-1)
			if dst, err = appendInstance(dst, &r.Instances[i], instanceLayout); err != nil {
				return nil, fmt.Errorf("%s.%s: instances[%d]: %w", r.Type, r.Name, i, err)
			}
		}
		dst = append(dst, "\n      ]"...)
	}
	return append(dst, "\n    }"...), nil
}

// layout is how an object is laid out: indented at a depth, as in state
// files (compact false), or on one line, as in journal records. One
// encoder serves both so that a record and a file entry cannot drift
// apart.
type layout struct {
	compact bool
	depth   int // of the object's fields
}

// newline starts a line at depth d; nothing when compact.
func (l layout) newline(dst []byte, d int) []byte {
	if l.compact {
		return dst
	}
	return newline(dst, d)
}

// raw appends valid JSON at the fields' depth.
func (l layout) raw(dst, src []byte) []byte {
	if l.compact {
		return appendCompact(dst, src)
	}
	return appendIndented(dst, src, l.depth)
}

// field starts a field; first tells whether a comma is needed before it.
func (l layout) field(dst []byte, first *bool, name string) []byte {
	if !*first {
		dst = append(dst, ',')
	}
	*first = false
	dst = append(l.newline(dst, l.depth), '"')
	dst = append(dst, name...)
	if l.compact {
		return append(dst, '"', ':')
	}
	return append(dst, '"', ':', ' ')
}

// instanceLayout is where instances sit in a state file.
var instanceLayout = layout{depth: 5}

func appendInstance(dst []byte, is *instanceV4, l layout) ([]byte, error) {
	first := true
	dst = append(dst, '{')
	if len(is.IndexKey) > 0 {
		dst = l.raw(l.field(dst, &first, "index_key"), is.IndexKey)
	}
	if is.Status != "" {
		dst = appendString(l.field(dst, &first, "status"), is.Status)
	}
	if is.Deposed != "" {
		dst = appendString(l.field(dst, &first, "deposed"), is.Deposed)
	}
	dst = strconv.AppendUint(l.field(dst, &first, "schema_version"), is.SchemaVersion, 10)
	if len(is.Attributes) > 0 {
		if !json.Valid(is.Attributes) {
			return nil, fmt.Errorf("attributes are not valid JSON")
		}
		dst = l.raw(l.field(dst, &first, "attributes"), is.Attributes)
	}
	if len(is.SensitiveAttributes) > 0 {
		dst = l.raw(l.field(dst, &first, "sensitive_attributes"), is.SensitiveAttributes)
	}
	if len(is.Private) > 0 {
		dst = append(l.field(dst, &first, "private"), '"')
		dst = base64.StdEncoding.AppendEncode(dst, is.Private)
		dst = append(dst, '"')
	}
	if len(is.Dependencies) > 0 {
		dst = append(l.field(dst, &first, "dependencies"), '[')
		for i, d := range is.Dependencies {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(l.newline(dst, l.depth+1), d)
		}
		dst = append(l.newline(dst, l.depth), ']')
	}
	if is.CreateBeforeDestroy {
		dst = append(l.field(dst, &first, "create_before_destroy"), "true"...)
	}
	return append(l.newline(dst, l.depth-1), '}'), nil
}
