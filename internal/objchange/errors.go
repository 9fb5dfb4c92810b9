package objchange

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// PathError is one contract violation at an attribute path.
type PathError struct {
	Path cty.Path
	Msg  string
}

// Error renders ".path.to.attr: message", or just the message at the root.
func (e *PathError) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return diags.FormatPath(e.Path) + ": " + e.Msg
}

// checker carries what every check needs to word its errors: which paths
// must not have their values printed.
type checker struct {
	errs      []error
	sensitive []cty.Path
}

// newChecker unmarks the given values, remembering every marked path so
// messages about those paths redact their values.
func newChecker(vals ...*cty.Value) *checker {
	c := &checker{}
	for _, v := range vals {
		unmarked, pvm := marks.Unmark(*v)
		*v = unmarked
		for _, p := range pvm {
			c.sensitive = append(c.sensitive, p.Path)
		}
	}
	return c
}

func (c *checker) errorf(path cty.Path, format string, args ...any) {
	c.errs = append(c.errs, &PathError{Path: copyPath(path), Msg: fmt.Sprintf(format, args...)})
}

// show renders v for a message, or "(sensitive value)" when v is at or
// contains a sensitive path, or attr says the attribute is sensitive.
func (c *checker) show(path cty.Path, v cty.Value, attr *configschema.Attribute) string {
	if attr != nil && attr.Secret() {
		return "(sensitive value)"
	}
	for _, sp := range c.sensitive {
		if hasPrefix(sp, path) || hasPrefix(path, sp) {
			return "(sensitive value)"
		}
	}
	return showValue(v)
}

func hasPrefix(p, prefix cty.Path) bool {
	if len(prefix) > len(p) {
		return false
	}
	return p[:len(prefix)].Equals(prefix)
}

// showValue renders a value compactly in HCL-like syntax for messages.
func showValue(v cty.Value) string {
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	case v.Type() == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	}
	return fmt.Sprintf("%#v", v)
}

func copyPath(p cty.Path) cty.Path {
	out := make(cty.Path, len(p))
	copy(out, p)
	return out
}

func appendStep(p cty.Path, s cty.PathStep) cty.Path {
	// Paths are only read during the walk and copied (copyPath) when an
	// error keeps one, so children may share their parent's backing array:
	// siblings overwrite the same slot, which nobody retains. Roots start
	// with spare capacity (rootPath), so a check allocates no paths.
	return append(p, s)
}

// rootPath is the path the walks start from.
func rootPath() cty.Path { return make(cty.Path, 0, 16) }
