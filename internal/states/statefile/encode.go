package statefile

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/cairn-iac/cairn/internal/parallel"
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
		instances, err := encodeInstances(doc.Resources)
		if err != nil {
			return nil, err
		}
		dst = slices.Grow(dst, resourcesSize(doc.Resources, instances))
		dst = append(dst, '[')
		for i := range doc.Resources {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendResource(dst, &doc.Resources[i], instances[i])
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

// encodeInstances encodes every instance of every resource into its own
// buffer, on every core: a large state is mostly its instances, and they
// are independent however they are spread over resources. The result is
// indexed like rs and each resource's Instances.
func encodeInstances(rs []resourceV4) ([][][]byte, error) {
	type ref struct{ r, i int }
	var refs []ref
	out := make([][][]byte, len(rs))
	for r := range rs {
		out[r] = make([][]byte, len(rs[r].Instances))
		for i := range rs[r].Instances {
			refs = append(refs, ref{r, i})
		}
	}
	errs := make([]error, len(refs))
	parallel.ForEach(len(refs), func(k int) {
		is := &rs[refs[k].r].Instances[refs[k].i]
		out[refs[k].r][refs[k].i], errs[k] = appendInstance(make([]byte, 0, instanceSizeHint(is)), is, instanceLayout)
	})
	for k, err := range errs {
		if err != nil { // the first in file order, whichever core met it
			r := &rs[refs[k].r]
			return nil, fmt.Errorf("%s.%s: instances[%d]: %w", r.Type, r.Name, refs[k].i, err)
		}
	}
	return out, nil
}

// resourcesSize is a close upper bound of what appendResource appends for
// rs, so that the file's buffer is allocated once.
func resourcesSize(rs []resourceV4, instances [][][]byte) int {
	n := 64
	for i := range rs {
		n += 192 + len(rs[i].Module) + len(rs[i].Type) + len(rs[i].Name) + len(rs[i].Provider)
		for _, is := range instances[i] {
			n += 16 + len(is)
		}
	}
	return n
}

// appendResource appends r with its instances already encoded.
func appendResource(dst []byte, r *resourceV4, instances [][]byte) []byte {
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
	if r.Provider != "" {
		dst = append(dst, ",\n      \"provider\": "...)
		dst = appendString(dst, r.Provider)
	}
	dst = append(dst, ",\n      \"instances\": "...)
	if len(instances) == 0 {
		return append(dst, "[]\n    }"...)
	}
	dst = append(dst, '[')
	for i, is := range instances {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = newline(dst, instanceLayout.depth-1)
		dst = append(dst, is...)
	}
	return append(dst, "\n      ]\n    }"...)
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
	if is.Provider != "" {
		dst = appendString(l.field(dst, &first, "provider"), is.Provider)
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
	if len(is.Identity) > 0 {
		if !json.Valid(is.Identity) {
			return nil, fmt.Errorf("identity is not valid JSON")
		}
		var v uint64
		if is.IdentitySchemaVersion != nil {
			v = *is.IdentitySchemaVersion
		}
		dst = strconv.AppendUint(l.field(dst, &first, "identity_schema_version"), v, 10)
		dst = l.raw(l.field(dst, &first, "identity"), is.Identity)
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
