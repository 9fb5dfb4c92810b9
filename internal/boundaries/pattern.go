package boundaries

import (
	"fmt"
	"strings"
)

// Pattern names packages in a rule line:
//
//   - "..." is every package;
//   - "std" is every package of the standard library;
//   - a path whose first element is a directory at the module's root
//     ("internal/lifecycle", "cloudcontrol/...") is a package of the
//     module, written from the root;
//   - any other path is an import path as written in an import
//     ("k8s.io/...", "net/http", "os").
//
// A trailing "/..." matches the path and every package under it, as in
// go list.
type Pattern struct {
	Text     string
	base     string // Text without "/..."
	wildcard bool
}

// ParsePattern checks the form of one pattern.
func ParsePattern(text string) (Pattern, error) {
	p := Pattern{Text: text, base: text}
	switch {
	case text == "..." || text == "std":
		return p, nil
	case strings.HasSuffix(text, "/..."):
		p.base, p.wildcard = strings.TrimSuffix(text, "/..."), true
	}
	if p.base == "" || strings.HasPrefix(p.base, "/") || strings.HasSuffix(p.base, "/") ||
		strings.Contains(p.base, "...") || strings.Contains(p.base, "//") || strings.HasPrefix(p.base, ".") {
		return p, fmt.Errorf("pattern %q: write an import path, a path from the module root, optionally ending in /..., or std or ...", text)
	}
	return p, nil
}

// matcher resolves patterns against one module: which paths are the
// module's, and which packages are the standard library's.
type matcher struct {
	module   string          // the module path
	roots    map[string]bool // first elements of the module's package paths
	standard func(path string) bool
}

// full is the import path the pattern's base stands for, and whether it
// names a package of the module.
func (m *matcher) full(p Pattern) (string, bool) {
	first, _, _ := strings.Cut(p.base, "/")
	if m.roots[first] {
		return m.module + "/" + p.base, true
	}
	return p.base, false
}

// match reports whether the pattern matches the import path.
func (m *matcher) match(p Pattern, path string) bool {
	switch p.Text {
	case "...":
		return true
	case "std":
		return m.standard(path)
	}
	base, _ := m.full(p)
	if path == base {
		return true
	}
	return p.wildcard && strings.HasPrefix(path, base+"/")
}
