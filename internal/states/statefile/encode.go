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
			if dst, err = appendInstance(dst, &r.Instances[i]); err != nil {
				return nil, fmt.Errorf("%s.%s: instances[%d]: %w", r.Type, r.Name, i, err)
			}
		}
		dst = append(dst, "\n      ]"...)
	}
	return append(dst, "\n    }"...), nil
}

// instanceField starts a field of an instance object; first tells whether
// a comma is needed before it.
func instanceField(dst []byte, first *bool, name string) []byte {
	if !*first {
		dst = append(dst, ',')
	}
	*first = false
	dst = append(dst, "\n          \""...)
	dst = append(dst, name...)
	return append(dst, "\": "...)
}

func appendInstance(dst []byte, is *instanceV4) ([]byte, error) {
	const depth = 5
	first := true
	dst = append(dst, "\n        {"...)
	if len(is.IndexKey) > 0 {
		dst = appendIndented(instanceField(dst, &first, "index_key"), is.IndexKey, depth)
	}
	if is.Status != "" {
		dst = appendString(instanceField(dst, &first, "status"), is.Status)
	}
	if is.Deposed != "" {
		dst = appendString(instanceField(dst, &first, "deposed"), is.Deposed)
	}
	dst = strconv.AppendUint(instanceField(dst, &first, "schema_version"), is.SchemaVersion, 10)
	if len(is.Attributes) > 0 {
		if !json.Valid(is.Attributes) {
			return nil, fmt.Errorf("attributes are not valid JSON")
		}
		dst = appendIndented(instanceField(dst, &first, "attributes"), is.Attributes, depth)
	}
	if len(is.SensitiveAttributes) > 0 {
		dst = appendIndented(instanceField(dst, &first, "sensitive_attributes"), is.SensitiveAttributes, depth)
	}
	if len(is.Private) > 0 {
		dst = instanceField(dst, &first, "private")
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, is.Private)
		dst = append(dst, '"')
	}
	if len(is.Dependencies) > 0 {
		dst = append(instanceField(dst, &first, "dependencies"), '[')
		for i, d := range is.Dependencies {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(append(dst, "\n            "...), d)
		}
		dst = append(dst, "\n          ]"...)
	}
	if is.CreateBeforeDestroy {
		dst = append(instanceField(dst, &first, "create_before_destroy"), "true"...)
	}
	return append(dst, "\n        }"...), nil
}
