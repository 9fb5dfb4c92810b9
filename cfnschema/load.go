package cfnschema

import (
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Load translates one schema document. file names the document in
// diagnostics. It returns nil and error diagnostics when the document cannot
// be translated; warnings may accompany a type.
func Load(file string, src []byte, opts ...Option) (*ResourceType, Diagnostics) {
	o := newOptions(opts)
	return load(file, src, &o, newPatternCache())
}

func load(file string, src []byte, o *options, patterns *patternCache) (rt *ResourceType, diags Diagnostics) {
	doc, d := decodeDocument(file, src)
	if d != nil {
		return nil, Diagnostics{*d}
	}
	tn, err := parseTypeName(doc.TypeName, o.prefixes)
	if err != nil {
		line, col := locatePointer(src, "/typeName")
		return nil, Diagnostics{{Severity: Error, File: file, Pointer: "/typeName", Line: line, Column: col,
			Summary: "Invalid type name", Detail: err.Error()}}
	}
	w := &walker{
		file: file, src: src, doc: doc, tn: tn, opts: o, patterns: patterns,
		readOnly:   newPointerSet(doc.ReadOnlyProperties),
		createOnly: newPointerSet(doc.CreateOnlyProperties),
		writeOnly:  newPointerSet(doc.WriteOnlyProperties),
		seen:       map[string]bool{},
		immutable:  hasHandler(doc.Handlers, "create") && !hasHandler(doc.Handlers, "update"),
	}
	attrs := w.object(doc.Properties, doc.Required, "/properties", parent{pointer: "/properties", plain: "/properties", top: true})
	if w.diags.HasErrors() {
		return nil, w.diags
	}
	w.checkPointers()
	rt = &ResourceType{
		TypeName:          doc.TypeName,
		File:              file,
		TerraformName:     tn.Terraform,
		Description:       doc.Description,
		PrimaryIdentifier: doc.PrimaryIdentifier,
		Handlers:          handlers(doc.Handlers),
		Suppressed:        strings.Join(w.suppress, "; "),
	}
	markElementTypes(attrs)
	rt.Attributes = withIDAttribute(attrs)
	rt.PluralName, rt.PluralUnavailable = pluralDataSource(tn.Terraform, doc.Handlers)
	index(rt)
	rt.Tagging = taggingOf(doc.Tagging, rt)
	return rt, w.diags
}

func hasHandler(hs map[string]handler, name string) bool {
	_, ok := hs[name]
	return ok
}

// decodeDocument parses the JSON of a schema document.
func decodeDocument(file string, src []byte) (*document, *Diagnostic) {
	var doc document
	if err := json.Unmarshal(src, &doc); err != nil {
		ptr, off := decodeErrorPointer(err)
		d := &Diagnostic{Severity: Error, File: file, Pointer: ptr, Summary: "Invalid schema JSON", Detail: err.Error()}
		if off >= 0 {
			d.Line, d.Column = lineCol(src, off)
		}
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			d.Pointer = ""
		}
		return nil, d
	}
	if doc.TypeName == "" {
		return nil, &Diagnostic{Severity: Error, File: file, Summary: "Missing typeName",
			Detail: "a resource schema must name its type, for example \"typeName\": \"AWS::S3::Bucket\""}
	}
	return &doc, nil
}

// idDescription is the description awscc gives the id attribute.
const idDescription = "Uniquely identifies the resource."

// withIDAttribute adds the computed id every resource has: the Cloud
// Control identifier, never derived by Cairn from properties (multi-part
// primary identifiers are joined with "|" by Cloud Control itself).
func withIDAttribute(attrs Attributes) Attributes {
	id := &Attribute{
		Name:               "id",
		Path:               Path{"id"},
		Type:               &Type{Kind: KindString},
		Description:        idDescription,
		Computed:           true,
		UseStateForUnknown: true,
		Reasons:            []string{"the Cloud Control identifier: the primaryIdentifier values joined with |"},
	}
	out := append(attrs, id)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// pluralDataSource names the plural data source, which awscc offers only when
// the list handler can be called without a resource model: it exists and its
// handlerSchema (if any) requires nothing.
func pluralDataSource(tfName string, hs map[string]handler) (name, unavailable string) {
	h, ok := hs["list"]
	if !ok {
		return "", "the schema has no list handler"
	}
	if s := h.HandlerSchema; s != nil && (len(s.Required) > 0 || len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0) {
		return "", "the list handler needs a resource model (its handlerSchema requires properties)"
	}
	return PluralName(tfName), ""
}

func handlers(hs map[string]handler) map[string]Handler {
	out := make(map[string]Handler, len(hs))
	for name, h := range hs {
		var hd Handler
		if h.TimeoutInMinutes != nil {
			if m, err := strconv.ParseFloat(string(*h.TimeoutInMinutes), 64); err == nil && m > 0 {
				hd.Timeout = time.Duration(m * float64(time.Minute))
			}
		}
		out[name] = hd
	}
	return out
}

// markElementTypes flags the attributes Terraform can only describe with
// element types: those of objects inside a collection whose elements are
// collections (a list of sets of objects). A write-only attribute in there
// makes the attribute holding the element type masked, the only place the
// flag fits.
func markElementTypes(attrs Attributes) {
	for _, a := range attrs {
		markAttribute(a, markType(a.Type, false))
	}
}

func markAttribute(a *Attribute, hidesWriteOnly bool) {
	if hidesWriteOnly && !a.Masked {
		a.Masked = true
		a.Reasons = append(a.Reasons, "masked: a write-only value is nested inside its element type")
	}
}

// markType marks the element-type attributes under t and reports whether
// one of them is write-only.
func markType(t *Type, inElem bool) bool {
	switch {
	case t.Kind == KindObject:
		hides := false
		for _, c := range t.Attributes {
			s := markType(c.Type, inElem)
			if inElem {
				c.InElementType = true
				hides = hides || s || c.WriteOnly
				continue
			}
			markAttribute(c, s)
		}
		return hides
	case t.Kind.IsCollection():
		return markType(t.Elem, inElem || t.Elem.Kind.IsCollection())
	}
	return false
}

// index fills the lookup maps and the write-only paths.
func index(rt *ResourceType) {
	rt.byPath = make(map[string]*Attribute)
	rt.byPointer = make(map[string]*Attribute)
	rt.Walk(func(a *Attribute) {
		rt.byPath[a.Path.String()] = a
		if a.Pointer != "" {
			rt.byPointer[a.Pointer] = a
		}
		if a.WriteOnly {
			rt.WriteOnly = append(rt.WriteOnly, a.Path)
		}
	})
}

// taggingOf records a type's tag property when the schema's tagging section
// says the type is taggable (the default when the section is present) and
// names a top-level property the type has. The tagProperty defaults to
// /properties/Tags, as the registry documents.
func taggingOf(t *tagging, rt *ResourceType) *Tagging {
	if t == nil || (t.Taggable != nil && !*t.Taggable) {
		return nil
	}
	ptr := t.TagProperty
	if ptr == "" {
		ptr = "/properties/Tags"
	}
	a := rt.AttributeForPointer(ptr)
	if a == nil || len(a.Path) != 1 {
		return nil
	}
	return &Tagging{TagProperty: ptr, Attribute: a, NotUpdatable: t.TagUpdatable != nil && !*t.TagUpdatable}
}
