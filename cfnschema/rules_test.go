package cfnschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Descriptions of the stock plan modifiers and of Cairn's own, as the
// framework renders them.
const (
	useState            = "Once set, the value of this attribute in state will not change."
	replace             = "If the value of this attribute changes, Terraform will destroy and recreate the resource."
	replaceIfConfigured = "If the value of this attribute is configured and changes, Terraform will destroy and recreate the resource."
	notNullDesc         = "value must be configured when the enclosing value is configured"
	multisetDesc        = "a reordering of the prior elements is not a change"
	optComp             = "Optional, Computed"
)

// ruleCase is one attribute of a rule schema and what it must become.
type ruleCase struct {
	reason string
	path   string
	want   attrSummary
}

// runRuleCases loads testdata/rules/FILE.json and checks each case.
func runRuleCases(t *testing.T, file string, cases map[string]ruleCase, opts ...Option) {
	t.Helper()
	rt, _ := loadRule(t, file, opts...)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := summarize(mustAttribute(t, rt, tc.path))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n%s: -want +got:\n%s", tc.reason, tc.path, diff)
			}
		})
	}
}

func TestTypes(t *testing.T) {
	runRuleCases(t, "types", map[string]ruleCase{
		"boolean":        {"boolean → Bool", "flag", attrSummary{Type: "Bool", Flags: optComp, Modifiers: []string{useState}}},
		"integer":        {"integer → Int64", "size", attrSummary{Type: "Int64", Flags: optComp, Modifiers: []string{useState}}},
		"number":         {"number → Float64", "ratio", attrSummary{Type: "Float64", Flags: optComp, Modifiers: []string{useState}}},
		"string":         {"string → String", "name", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"date-time":      {"format date-time → RFC 3339 custom type", "created_at", attrSummary{Type: "String (RFC 3339 timestamp)", Flags: optComp, Modifiers: []string{useState}}},
		"object":         {"object with properties → nested attribute", "settings", attrSummary{Type: "Object", Flags: optComp, Modifiers: []string{useState}}},
		"object member":  {"", "settings.mode", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"map":            {"object with patternProperties → map, keys validated", "labels", attrSummary{Type: "Map of String", Flags: optComp, Validators: []string{"key must satisfy all validations: key must match one of '^[a-z]+$'"}, Modifiers: []string{useState}}},
		"schemaless":     {"object with neither → JSON string", "document", attrSummary{Type: "String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"untyped":        {"no type, no properties → JSON string", "untyped", attrSummary{Type: "String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"untyped object": {"no type but properties → object", "untyped_object.inner", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"anyOf only":     {"anyOf-only → JSON string, not suppressed", "either", attrSummary{Type: "String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"type array":     {"the first non-object type wins", "object_or_string", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"type array 2":   {"", "integer_or_string", attrSummary{Type: "Int64", Flags: optComp, Modifiers: []string{useState}}},
		"props and map":  {"properties beside patternProperties → JSON string", "both", attrSummary{Type: "String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"id":             {"every resource has a computed id", "id", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
	})
}

func TestArrays(t *testing.T) {
	elementOf := "(part of an element type: no per-attribute flags)"
	runRuleCases(t, "arrays", map[string]ruleCase{
		"default list":       {"insertionOrder defaults to true, uniqueItems to false", "ordered", attrSummary{Type: "List of String", Flags: optComp, Modifiers: []string{useState}}},
		"explicit list":      {"", "ordered_explicit", attrSummary{Type: "List of String", Flags: optComp, Modifiers: []string{useState}}},
		"multiset":           {"insertionOrder false → list that ignores order-only changes", "multiset", attrSummary{Type: "List (multiset) of String", Flags: optComp + ", Masked", Modifiers: []string{multisetDesc, useState}}},
		"unique":             {"uniqueItems → list with a unique-values validator", "unique_ordered", attrSummary{Type: "List (unique) of String", Flags: optComp, Validators: []string{"all values must be unique"}, Modifiers: []string{useState}}},
		"set":                {"unique and unordered → set", "set", attrSummary{Type: "Set of String", Flags: optComp, Modifiers: []string{useState}}},
		"set of objects":     {"", "objects", attrSummary{Type: "Set of Object", Flags: optComp, Modifiers: []string{useState}}},
		"nested required":    {"items.required inside an optional list → not-null", "object_list[*].key", attrSummary{Type: "String", Flags: optComp, Validators: []string{notNullDesc}, Modifiers: []string{useState}}},
		"list of set":        {"awscc picks a random inner property; Cairn keeps the shape as element types, and a write-only member makes it masked", "list_of_set_of_objects", attrSummary{Type: "List of Set of Object", Flags: optComp + ", Masked", Modifiers: []string{useState}}},
		"list of set member": {"", "list_of_set_of_objects[*][*].key", attrSummary{Type: "String", Flags: elementOf}},
		"list of list":       {"", "list_of_list_of_numbers", attrSummary{Type: "List of List of Float64", Flags: optComp, Modifiers: []string{useState}}},
		"set of arrays":      {"awscc refuses sets of arrays", "set_of_arrays", attrSummary{Type: "Set of List of String", Flags: optComp, Modifiers: []string{useState}}},
		"list of maps":       {"", "list_of_maps", attrSummary{Type: "List of Map of Int64", Flags: optComp, Validators: []string{"element value must satisfy all validations: key must satisfy all validations: key must match one of '.+'"}, Modifiers: []string{useState}}},
		"no items":           {"an array without items holds any JSON", "no_items", attrSummary{Type: "List of String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"untyped objects":    {"awscc: list of undefined schema", "untyped_object_items", attrSummary{Type: "List of String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"items no type":      {"items with properties but no type are objects", "items_without_type[*].x", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"timestamps":         {"string items keep the date-time type", "timestamps", attrSummary{Type: "List of String (RFC 3339 timestamp)", Flags: optComp, Modifiers: []string{useState}}},
	})
}

func TestValidators(t *testing.T) {
	v := func(vs ...string) attrSummary {
		return attrSummary{Type: "String", Flags: optComp, Validators: vs, Modifiers: []string{useState}}
	}
	i := func(vs ...string) attrSummary {
		return attrSummary{Type: "Int64", Flags: optComp, Validators: vs, Modifiers: []string{useState}}
	}
	f := func(vs ...string) attrSummary {
		return attrSummary{Type: "Float64", Flags: optComp, Validators: vs, Modifiers: []string{useState}}
	}
	runRuleCases(t, "validators", map[string]ruleCase{
		"between":             {"minimum and maximum", "between", i("value must be between 1 and 10")},
		"at least":            {"", "at_least", i("value must be at least 0")},
		"at most":             {"", "at_most", i("value must be at most 5")},
		"fractional":          {"fractional integer bounds round inwards", "fractional_bounds", i("value must be between 1 and 9")},
		"int enum":            {"", "int_enum", i(`value must be one of: ["1" "2" "3"]`)},
		"float between":       {"", "float_between", f("value must be between 0.000001 and 1.500000")},
		"float enum":          {"awscc refuses number enums", "float_enum", f(`value must be one of: ["0.500000" "1.000000"]`)},
		"length":              {"lengths count characters, as JSON Schema does", "length", v("UTF-8 character count must be between 1 and 64")},
		"min length":          {"", "min_length", v("UTF-8 character count must be at least 3")},
		"max length":          {"", "max_length", v("UTF-8 character count must be at most 8")},
		"enum":                {"", "enum", v(`value must be one of: ["A" "B"]`)},
		"re2 pattern":         {"patterns RE2 compiles use RegexMatches", "pattern", v("value must match regular expression '^[a-z]+$'")},
		"empty pattern":       {"the sanitiser's placeholder validates nothing", "empty_pattern", v()},
		"lookahead":           {"RE2 rejects lookahead", "lookahead", v("value must match ECMA-262 regular expression '^(?!aws:).*$'")},
		"unicode escape":      {"RE2 rejects \\uXXXX", "unicode_escape", v(`value must match ECMA-262 regular expression '^[\u0020-\u007E]+$'`)},
		"long repeat":         {"RE2 rejects repeat counts over 1000", "long_repeat", v("value must match ECMA-262 regular expression '^arn:.{1,2048}$'")},
		"end anchor":          {"RE2 rejects \\Z", "end_anchor", v(`value must match ECMA-262 regular expression '^[a-z]+\Z'`)},
		"broken pattern":      {"a pattern no engine compiles is dropped with a warning", "broken", v()},
		"items":               {"minItems/maxItems and item validators", "items", attrSummary{Type: "List of String", Flags: optComp, Validators: []string{"list must contain at least 1 elements and at most 3 elements", "element value must satisfy all validations: UTF-8 character count must be at most 4"}, Modifiers: []string{useState}}},
		"number items":        {"awscc refuses validators on number items", "number_items", attrSummary{Type: "List of Float64", Flags: optComp, Validators: []string{"element value must satisfy all validations: value must be at least 0.000000"}, Modifiers: []string{useState}}},
		"set items":           {"", "set_items", attrSummary{Type: "Set of Int64", Flags: optComp, Validators: []string{"set must contain at least 2 elements", `element value must satisfy all validations: value must be one of: ["1" "2"]`}, Modifiers: []string{useState}}},
		"map size":            {"minProperties/maxProperties, key pattern, value validators", "map_size", attrSummary{Type: "Map of String", Flags: optComp, Validators: []string{"map must contain at least 1 elements and at most 2 elements", "key must satisfy all validations: key must match one of '^k'", "element value must satisfy all validations: UTF-8 character count must be at least 1"}, Modifiers: []string{useState}}},
		"read-only":           {"computed-only attributes get no validators", "read_only_bounded", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
		"contradictory":       {"minLength above maxLength would reject everything: dropped with a warning", "contradictory", v()},
		"contradictory range": {"", "contradictory_range", f()},
	})
}

func TestDefaults(t *testing.T) {
	d := func(typ, def string) attrSummary {
		return attrSummary{Type: typ, Flags: optComp, Modifiers: []string{"planned as " + def + " when not configured", useState}}
	}
	runRuleCases(t, "defaults", map[string]ruleCase{
		"bool":           {"", "enabled", d("Bool", "true")},
		"bool as string": {`"false" on a boolean`, "enabled_string", d("Bool", "false")},
		"int":            {"", "port", d("Int64", "443")},
		"float":          {"", "weight", d("Float64", "0.500000")},
		"string":         {"", "mode", d("String", `"fast"`)},
		"bool on string": {"a boolean default on a string becomes its text", "bool_on_string", d("String", `"true"`)},
		"string list":    {"", "names", d("List of String", `["a","b"]`)},
		"empty set":      {"[] on a set of objects", "empty_objects", d("Set of Object", "[]")},
		"object":         {"an object default leaves the rest unknown for the server", "config", d("Object", `{"enabled":false,"level":<unknown>}`)},
		"required":       {"required with a default → Optional", "required_with_default", d("String", `"x"`)},
		"null":           {"a null default is no default", "null_default", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"bad":            {"a default that does not fit is dropped with a warning", "bad_default", attrSummary{Type: "Int64", Flags: optComp, Modifiers: []string{useState}}},
	})
}

func TestConfigurability(t *testing.T) {
	runRuleCases(t, "configurability", map[string]ruleCase{
		"required":             {"required → Required", "name", attrSummary{Type: "String", Flags: "Required"}},
		"optional":             {"not required → Optional+Computed", "description", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"read-only":            {"read-only → Computed", "arn", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
		"create-only required": {"required create-only → RequiresReplace", "immutable", attrSummary{Type: "String", Flags: "Required", Modifiers: []string{replace}}},
		"create-only optional": {"optional create-only → RequiresReplaceIfConfigured", "immutable_optional", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState, replaceIfConfigured}}},
		"create-only computed": {"read-only create-only keeps awscc's RequiresReplace", "create_only_computed", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState, replace}}},
		"write-only":           {"write-only → masked, not Sensitive (awscc marks nothing Sensitive)", "secret", attrSummary{Type: "String", Flags: optComp + ", Masked", Modifiers: []string{useState}}},
		"read-only required":   {"read-only and required stays Required", "read_only_required", attrSummary{Type: "String", Flags: "Required"}},
		"required in optional": {"required inside an optional parent → Optional with not-null", "optional.must", attrSummary{Type: "String", Flags: optComp, Validators: []string{notNullDesc}, Modifiers: []string{useState}}},
		"deep in optional":     {"", "optional.deep.leaf", attrSummary{Type: "String", Flags: optComp, Validators: []string{notNullDesc}, Modifiers: []string{useState}}},
		"required in required": {"children of a Required parent stay Required", "required_block.must", attrSummary{Type: "String", Flags: "Required"}},
		"optional in required": {"", "required_block.may", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
		"computed parent":      {"read-only parent → children Computed only, no UseStateForUnknown", "status.must", attrSummary{Type: "String", Flags: "Computed"}},
		"computed parent obj":  {"", "status", attrSummary{Type: "Object", Flags: "Computed", Modifiers: []string{useState}}},
	})
}

func TestPointers(t *testing.T) {
	runRuleCases(t, "pointers", map[string]ruleCase{
		"read-only through array":   {"/properties/Rules/*/Arn is honoured (awscc ignores * pointers)", "rules[*].arn", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
		"read-only legacy form":     {"/properties/Legacy/Arn matches through the array, as in awscc", "legacy[*].arn", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
		"read-only through map":     {"", "groups[*].arn", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
		"create-only through array": {"", "rules[*].name", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState, replaceIfConfigured}}},
		"write-only through array":  {"", "rules[*].password", attrSummary{Type: "String", Flags: optComp + ", Masked", Modifiers: []string{useState}}},
		"nested read-only":          {"", "settings.endpoint", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
		"nested create-only":        {"", "settings.region", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState, replaceIfConfigured}}},
		"unmarked sibling":          {"", "legacy[*].password", attrSummary{Type: "String", Flags: optComp, Modifiers: []string{useState}}},
	})
}

func TestWriteOnlyPaths(t *testing.T) {
	rt, _ := loadRule(t, "pointers")
	var got []string
	for _, p := range rt.WriteOnly {
		got = append(got, p.String())
	}
	want := []string{"rules[*].password", "settings.token"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("write-only paths, including those through arrays, are exposed for the runtime: -want +got:\n%s", diff)
	}
}

func TestMaps(t *testing.T) {
	runRuleCases(t, "maps", map[string]ruleCase{
		"one pattern":   {"keys and values validated", "tags", attrSummary{Type: "Map of String", Flags: optComp, Validators: []string{"key must satisfy all validations: key must match one of '^[a-z]+$'", "element value must satisfy all validations: UTF-8 character count must be at most 3"}, Modifiers: []string{useState}}},
		"match-all key": {"an empty pattern matches every key: no key validator, values by pattern", "env", attrSummary{Type: "Map of String", Flags: optComp, Validators: []string{"each value must satisfy the schema of a pattern its key matches"}, Modifiers: []string{useState}}},
		"two patterns":  {"every pattern is kept (awscc keeps the first)", "two_patterns", attrSummary{Type: "Map of String", Flags: optComp, Validators: []string{"key must satisfy all validations: key must match one of '^a', '^b'", "each value must satisfy the schema of a pattern its key matches"}, Modifiers: []string{useState}}},
		"mixed types":   {"patterns with different value types → JSON string", "mixed", attrSummary{Type: "String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
		"map nested":    {"object values → nested attributes", "objects", attrSummary{Type: "Map of Object", Flags: "Required", Validators: []string{"key must satisfy all validations: key must match one of '.+'"}}},
		"map required":  {"map values keep their required members (awscc: never Required)", "objects[*].source", attrSummary{Type: "String", Flags: "Required"}},
		"map of sets":   {"awscc flattens a map of sets of objects; Cairn keeps the set", "sets_of_objects", attrSummary{Type: "Map of Set of Object", Flags: optComp, Validators: []string{"key must satisfy all validations: key must match one of '.+'"}, Modifiers: []string{useState}}},
	})
}

func TestRefs(t *testing.T) {
	s := func(vs ...string) attrSummary {
		return attrSummary{Type: "String", Flags: optComp, Validators: vs, Modifiers: []string{useState}}
	}
	runRuleCases(t, "refs", map[string]ruleCase{
		"definition":    {"#/definitions/X resolves with its constraints", "plain", s("UTF-8 character count must be at most 5")},
		"property ref":  {"#/properties/X resolves", "alias", s("UTF-8 character count must be at most 5")},
		"ref default":   {"the referencing property's default is kept", "defaulted", attrSummary{Type: "String", Flags: optComp, Validators: []string{`value must be one of: ["LOW" "HIGH"]`}, Modifiers: []string{`planned as "LOW" when not configured`, useState}}},
		"oneOf union":   {"oneOf without properties → union object, all optional", "union.a", s()},
		"oneOf union b": {"", "union.b", attrSummary{Type: "Int64", Flags: optComp, Modifiers: []string{useState}}},
		"oneOf ignored": {"oneOf beside properties is ignored", "constrained.a", s()},
		"oneOf string":  {"oneOf branches without properties keep the type", "string_one_of", s()},
		"allOf ref":     {"allOf $ref resolved with its enum (awscc drops it) and the branch default", "all_of_ref", attrSummary{Type: "String", Flags: optComp, Validators: []string{`value must be one of: ["LOW" "HIGH"]`}, Modifiers: []string{`planned as "HIGH" when not configured`, useState}}},
		"allOf props":   {"allOf branches merge, required included", "all_of_props.x", s(notNullDesc)},
		"anyOf only":    {"anyOf is never unwrapped", "any_of_only", attrSummary{Type: "String (JSON)", Flags: optComp, Modifiers: []string{useState}}},
	})
	rt, _ := loadRule(t, "refs")
	descriptions := map[string]string{
		"described": "the referencing description wins",
		"plain":     "the definition's description",
	}
	for path, want := range descriptions {
		if got := mustAttribute(t, rt, path).Description; got != want {
			t.Errorf("%s description: want %q, got %q", path, want, got)
		}
	}
}

func TestRecursion(t *testing.T) {
	cases := map[string]struct {
		reason string
		depth  int
		path   string
		want   string
	}{
		"depth 1 typed":    {"the first expansion is typed", 1, "statement.match", "String"},
		"depth 1 re-entry": {"the first re-entry is a JSON string", 1, "statement.not", "String (JSON)"},
		"depth 1 in list":  {"", 1, "statement.and", "List of String (JSON)"},
		"depth 2 typed":    {"the default keeps one nested level typed", 2, "statement.not.match", "String"},
		"depth 2 re-entry": {"", 2, "statement.not.not", "String (JSON)"},
		"depth 2 list":     {"", 2, "statement.and[*].and", "List of String (JSON)"},
		"depth 3":          {"", 3, "statement.not.not.match", "String"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rt, _ := loadRule(t, "recursion", WithRecursionDepth(tc.depth))
			if diff := cmp.Diff(tc.want, TypeString(mustAttribute(t, rt, tc.path).Type)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestNoUpdateHandler: a type that can be created but has no update
// handler cannot change in place, so every top-level property it takes
// replaces the resource; read-only ones stay as they are.
func TestNoUpdateHandler(t *testing.T) {
	runRuleCases(t, "immutable", map[string]ruleCase{
		"required":  {"required → RequiresReplace", "name", attrSummary{Type: "String", Flags: "Required", Modifiers: []string{replace}}},
		"optional":  {"optional → replaces when a configured value changes", "size", attrSummary{Type: "Int64", Flags: optComp, Modifiers: []string{useState, replaceIfConfigured}}},
		"object":    {"", "settings", attrSummary{Type: "Object", Flags: optComp, Modifiers: []string{useState, replaceIfConfigured}}},
		"read-only": {"read-only keeps its modifiers", "arn", attrSummary{Type: "String", Flags: "Computed", Modifiers: []string{useState}}},
	})
}
