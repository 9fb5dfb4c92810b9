package testdynamo

import (
	"regexp"
	"strings"
)

// exprNames tracks the #name and :value placeholders of one request, so
// that one left unused is refused as DynamoDB refuses it.
type exprNames struct {
	names      map[string]string
	values     map[string]string
	usedNames  map[string]bool
	usedValues map[string]bool
}

func newExprNames(names map[string]string, values map[string]attrValue) (*exprNames, *apiError) {
	x := &exprNames{names: names, values: map[string]string{}, usedNames: map[string]bool{}, usedValues: map[string]bool{}}
	for k, v := range values {
		s, e := v.str()
		if e != nil {
			return nil, e
		}
		x.values[k] = s
	}
	return x, nil
}

var (
	identRE     = regexp.MustCompile(`^(#[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*)$`)
	valueRE     = regexp.MustCompile(`^:[A-Za-z0-9_]+$`)
	functionRE  = regexp.MustCompile(`^(attribute_exists|attribute_not_exists)\s*\(\s*([^()]*?)\s*\)$`)
	equalsRE    = regexp.MustCompile(`^([^=<>\s]+)\s*=\s*([^=<>\s]+)$`)
	unsupported = "testdynamo supports only attribute_exists(a), attribute_not_exists(a) and a = :v"
)

// attribute resolves one attribute name of an expression.
func (x *exprNames) attribute(tok string) (string, *apiError) {
	if !identRE.MatchString(tok) {
		return "", errValidation("Invalid expression: attribute name " + tok + " is not supported")
	}
	if !strings.HasPrefix(tok, "#") {
		return tok, nil
	}
	name, ok := x.names[tok]
	if !ok {
		return "", errValidation("Value provided in ExpressionAttributeNames unused in expressions or undefined: " + tok)
	}
	x.usedNames[tok] = true
	return name, nil
}

// value resolves one :value placeholder.
func (x *exprNames) value(tok string) (string, *apiError) {
	v, ok := x.values[tok]
	if !valueRE.MatchString(tok) || !ok {
		return "", errValidation("An expression attribute value used in expression is not defined; attribute value: " + tok)
	}
	x.usedValues[tok] = true
	return v, nil
}

// unused reports a placeholder defined but not used, as DynamoDB does.
func (x *exprNames) unused() *apiError {
	for k := range x.names {
		if !x.usedNames[k] {
			return errValidation("Value provided in ExpressionAttributeNames unused in expressions: keys: {" + k + "}")
		}
	}
	for k := range x.values {
		if !x.usedValues[k] {
			return errValidation("Value provided in ExpressionAttributeValues unused in expressions: keys: {" + k + "}")
		}
	}
	return nil
}

// condition is a parsed ConditionExpression: whether it holds for the
// item currently stored (nil when there is none).
type condition func(item map[string]string) bool

// parseCondition parses the forms the subset has; an empty expression
// always holds.
func parseCondition(expr string, x *exprNames) (condition, *apiError) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return func(map[string]string) bool { return true }, nil
	}
	if m := functionRE.FindStringSubmatch(expr); m != nil {
		name, e := x.attribute(m[2])
		if e != nil {
			return nil, e
		}
		want := m[1] == "attribute_exists"
		return func(item map[string]string) bool {
			_, ok := item[name]
			return ok == want
		}, nil
	}
	if m := equalsRE.FindStringSubmatch(expr); m != nil {
		name, e := x.attribute(m[1])
		if e != nil {
			return nil, e
		}
		v, e := x.value(m[2])
		if e != nil {
			return nil, e
		}
		return func(item map[string]string) bool {
			got, ok := item[name]
			return ok && got == v
		}, nil
	}
	return nil, errValidation("Invalid ConditionExpression: " + unsupported)
}

// parseProjection parses a ProjectionExpression: attribute names
// separated by commas. It returns nil for an empty expression (every
// attribute).
func parseProjection(expr string, x *exprNames) ([]string, *apiError) {
	if strings.TrimSpace(expr) == "" {
		return nil, nil
	}
	var out []string
	for _, tok := range strings.Split(expr, ",") {
		name, e := x.attribute(strings.TrimSpace(tok))
		if e != nil {
			return nil, errValidation("Invalid ProjectionExpression: " + e.message)
		}
		out = append(out, name)
	}
	return out, nil
}
