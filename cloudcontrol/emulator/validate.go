package emulator

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// patternTimeout bounds one regular-expression match: ECMAScript patterns
// backtrack, and a desired model is caller input.
const patternTimeout = 250 * time.Millisecond

// validator compiles a type's schema on first use and validates models
// against it. Compiling is the slow part, so it happens once per handler.
type validator struct {
	schema *typeSchema
	once   sync.Once
	sch    *jsonschema.Schema
	err    error
}

// compiled returns the compiled schema, compiling it on the first call.
func (v *validator) compiled() (*jsonschema.Schema, error) {
	v.once.Do(func() { v.sch, v.err = compileSchema(v.schema) })
	return v.sch, v.err
}

// compileSchema compiles the JSON-Schema part of a resource schema as
// draft-07, with ECMAScript regular expressions as CloudFormation's own
// validator uses. Top-level required names that are read-only are dropped:
// the caller never supplies them, the emulator does.
func compileSchema(s *typeSchema) (*jsonschema.Schema, error) {
	// Only the top-level keys that are JSON Schema; the rest (handlers,
	// tagging, readOnlyProperties, $schema, ...) is CloudFormation
	// metadata, and handlers in particular holds $refs to
	// "resource-schema.json", a document that is not there to load.
	keywords := []string{
		"type", "properties", "definitions", "required", "additionalProperties",
		"patternProperties", "oneOf", "anyOf", "allOf", "not", "dependencies",
		"minProperties", "maxProperties",
	}
	doc := make(map[string]any, len(keywords))
	for _, k := range keywords {
		if v, ok := s.doc[k]; ok {
			doc[k] = v
		}
	}
	if req, ok := doc["required"].([]any); ok {
		doc["required"] = slices.DeleteFunc(slices.Clone(req), func(r any) bool {
			name, _ := r.(string)
			return s.isReadOnly(name)
		})
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseRegexpEngine(compilePattern)
	c.UseLoader(noLoader{})
	url := "urn:cairn:emulator:" + strings.ReplaceAll(s.typeName, "::", ":")
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("adding schema of %s: %w", s.typeName, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling schema of %s: %w", s.typeName, err)
	}
	return sch, nil
}

// noLoader refuses every external reference: schemas are compiled
// offline, and a schema that needs a remote document is an error to
// report, not a download to make.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema %s is not available offline", url)
}

// ecmaRegexp adapts regexp2 to the validator's Regexp interface.
type ecmaRegexp struct{ re *regexp2.Regexp }

// MatchString reports whether s matches. A match that runs out of time
// counts as one: the timeout guards the emulator against a backtracking
// pattern, and it also fires when a loaded machine merely deschedules
// the match, which must not turn a valid model into "Model validation
// failed". The emulator refuses only what a pattern decided against.
func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err != nil || ok
}

func (r ecmaRegexp) String() string { return r.re.String() }

// compilePattern compiles a schema pattern as ECMAScript. A few registry
// patterns use syntax ECMAScript mode rejects (\p{L}, possessive forms),
// so it falls back to regexp2's default (.NET) syntax and then to Go's.
func compilePattern(expr string) (jsonschema.Regexp, error) {
	re, err := regexp2.Compile(expr, regexp2.ECMAScript)
	if err != nil {
		re, err = regexp2.Compile(expr, regexp2.None)
	}
	if err == nil {
		re.MatchTimeout = patternTimeout
		return ecmaRegexp{re}, nil
	}
	if goRe, goErr := regexp.Compile(expr); goErr == nil {
		return goRe, nil
	}
	return nil, fmt.Errorf("pattern %q: %w", expr, err)
}

// validate checks model against the schema. Its error, for the caller,
// is CloudFormation's: "Model validation failed (#/Path: reason)".
func (v *validator) validate(model map[string]any) error {
	sch, err := v.compiled()
	if err != nil {
		return err
	}
	err = sch.Validate(any(model))
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return &invalidModel{lines: []string{fmt.Sprintf("#: %v", err)}}
	}
	lines := describe(verr, nil)
	slices.Sort(lines)
	return &invalidModel{lines: slices.Compact(lines)}
}

// invalidModel is a model that fails its schema: the caller's mistake,
// one line per failed constraint.
type invalidModel struct{ lines []string }

// Error is CloudFormation's message: "Model validation failed (#/Path:
// reason)", lines sorted so that the message never flaps.
func (e *invalidModel) Error() string {
	return fmt.Sprintf("Model validation failed (%s)", strings.Join(e.lines, "\n"))
}

// describe flattens a validation error tree into CloudFormation-style
// lines, one per failed leaf constraint. It stops at oneOf and anyOf: the
// reasons each alternative failed are noise to the caller.
func describe(e *jsonschema.ValidationError, out []string) []string {
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			out = describe(c, out)
		}
		return out
	case *kind.Required:
		for _, name := range k.Missing {
			out = append(out, fmt.Sprintf("%s: required key [%s] not found", location(e), name))
		}
		return out
	case *kind.AdditionalProperties:
		for _, name := range k.Properties {
			out = append(out, fmt.Sprintf("%s: extraneous key [%s] is not permitted", location(e), name))
		}
		return out
	case *kind.Type:
		return append(out, fmt.Sprintf("%s: expected type: %s, found: %s",
			location(e), typeWord(strings.Join(k.Want, "|")), typeWord(k.Got)))
	}
	kw := "schema"
	if path := e.ErrorKind.KeywordPath(); len(path) > 0 {
		kw = path[0]
	}
	return append(out, fmt.Sprintf("%s: failed validation constraint for keyword [%s]", location(e), kw))
}

// location renders an instance location as CloudFormation does: #, #/A/B.
func location(e *jsonschema.ValidationError) string {
	if len(e.InstanceLocation) == 0 {
		return "#"
	}
	return "#/" + strings.Join(e.InstanceLocation, "/")
}

// typeWord names a JSON type the way CloudFormation's messages do.
func typeWord(t string) string {
	words := map[string]string{
		"string": "String", "integer": "Integer", "number": "Number", "boolean": "Boolean",
		"object": "JSONObject", "array": "JSONArray", "null": "Null",
	}
	parts := strings.Split(t, "|")
	for i, p := range parts {
		if w, ok := words[p]; ok {
			parts[i] = w
		}
	}
	return strings.Join(parts, "|")
}
