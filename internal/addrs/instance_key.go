package addrs

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// InstanceKey identifies one instance of a resource that uses count or
// for_each. NoKey (a nil interface) is the key of a resource that uses
// neither. The dynamic types IntKey and StringKey are comparable, so an
// InstanceKey can key a map directly.
type InstanceKey interface {
	instanceKey()
	// String returns the key in index syntax, e.g. [0] or ["a"].
	String() string
	// Value returns the key as count.index or each.key would see it.
	Value() cty.Value
}

// NoKey is the key of a resource instance that has no count or for_each.
var NoKey InstanceKey

// IntKey is the key of an instance created by count.
type IntKey int

// StringKey is the key of an instance created by for_each.
type StringKey string

func (IntKey) instanceKey()    {}
func (StringKey) instanceKey() {}

func (k IntKey) String() string { return "[" + strconv.Itoa(int(k)) + "]" }

func (k StringKey) String() string { return "[" + quoteString(string(k)) + "]" }

// Value implements InstanceKey.
func (k IntKey) Value() cty.Value { return cty.NumberIntVal(int64(k)) }

// Value implements InstanceKey.
func (k StringKey) Value() cty.Value { return cty.StringVal(string(k)) }

// KeyString returns the key in index syntax, or "" for NoKey.
func KeyString(k InstanceKey) string {
	if k == nil {
		return ""
	}
	return k.String()
}

// ParseInstanceKey converts a cty value, as found in an index step of a
// traversal or in a state file's index_key, into an InstanceKey.
// Whole numbers become IntKey and strings StringKey; anything else is an
// error.
func ParseInstanceKey(v cty.Value) (InstanceKey, error) {
	if v.IsNull() || !v.IsKnown() {
		return nil, fmt.Errorf("instance key must be a known, non-null value")
	}
	switch v.Type() {
	case cty.String:
		return StringKey(v.AsString()), nil
	case cty.Number:
		var n int
		if err := gocty.FromCtyValue(v, &n); err != nil {
			return nil, fmt.Errorf("instance key must be a whole number: %w", err)
		}
		if n < 0 {
			return nil, fmt.Errorf("instance key must not be negative")
		}
		return IntKey(n), nil
	default:
		return nil, fmt.Errorf("instance key must be a number or a string, not %s", v.Type().FriendlyName())
	}
}

// quoteString quotes s using HCL's native string escapes, so the result
// parses back as an HCL template producing s.
func quoteString(s string) string {
	// hclwrite escapes ${ and %{ as well as quotes, backslashes and
	// control characters, exactly as the HCL parser expects.
	return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes())
}
