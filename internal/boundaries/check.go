package boundaries

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Violation is one crossing of a stated boundary, or a doc.go whose
// rules cannot be read.
type Violation struct {
	// Package is the package that crossed, named from the module root.
	Package string
	// Message names the edge, the rule and where the rule is written.
	Message string
}

func (v Violation) String() string { return v.Message }

// checker holds one module's graph and the rules of its doc.go files.
type checker struct {
	g     *Graph
	m     *matcher
	rules map[string]*Rules // by package directory from the module root
	out   []Violation
}

// Check holds every package of the module to the rules of its own
// doc.go and of the doc.go files of the directories above it, and to
// the rules that hold everywhere: every package has a doc.go, and only
// a package whose rules say "uses" reads flags, the environment or the
// terminal, or has an init function.
func Check(g *Graph) []Violation {
	c := &checker{g: g, rules: map[string]*Rules{}}
	c.m = &matcher{module: g.Module, roots: map[string]bool{}, standard: func(path string) bool {
		p := g.Packages[path]
		return p != nil && p.Standard
	}}
	for _, p := range g.Own {
		first, _, _ := strings.Cut(p.Rel, "/")
		c.m.roots[first] = true
	}
	c.readRules()
	c.checkPatterns()
	for _, p := range g.Own {
		c.checkImports(p)
		c.checkLinked(p)
		c.checkTestsOnly(p)
		c.checkEffects(p)
	}
	return c.out
}

func (c *checker) report(pkg, format string, args ...any) {
	c.out = append(c.out, Violation{Package: pkg, Message: fmt.Sprintf(format, args...)})
}

// rel names a file from the module root.
func (c *checker) rel(file string) string {
	if r, err := filepath.Rel(c.g.Dir, file); err == nil {
		return filepath.ToSlash(r)
	}
	return file
}

func (c *checker) where(l *Line) string {
	return fmt.Sprintf("%s:%d", c.rel(l.Pos.Filename), l.Pos.Line)
}

func (c *checker) readRules() {
	for _, p := range c.g.Own {
		r, err := ParseDocFile(filepath.Join(p.Dir, "doc.go"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			c.report(p.Rel, "%s has no doc.go: every package states its boundary in one", p.Rel)
		case err != nil:
			c.report(p.Rel, "%s", strings.ReplaceAll(err.Error(), c.g.Dir+string(filepath.Separator), ""))
		case r != nil:
			c.rules[p.Rel] = r
		}
	}
}

// checkPatterns refuses a pattern for the module's own packages that
// matches none of them: a typo, or a package that moved, would make a
// rule hold nothing.
func (c *checker) checkPatterns() {
	for _, p := range c.g.Own {
		r := c.rules[p.Rel]
		if r == nil {
			continue
		}
		for i := range r.Lines {
			l := &r.Lines[i]
			for _, pat := range l.Patterns {
				if _, own := c.m.full(pat); !own || c.matchesOwn(pat) {
					continue
				}
				c.report(p.Rel, "%s: %s matches no package of the module", c.where(l), pat.Text)
			}
		}
	}
}

func (c *checker) matchesOwn(p Pattern) bool {
	for _, o := range c.g.Own {
		if c.m.match(p, o.Path) {
			return true
		}
	}
	return false
}

// chain is the rules that hold for a package, nearest first: its own
// doc.go's, then those of each directory above it.
func (c *checker) chain(rel string) []*Rules {
	var out []*Rules
	for {
		if r := c.rules[rel]; r != nil {
			out = append(out, r)
		}
		if rel == "." {
			return out
		}
		rel = filepath.ToSlash(filepath.Dir(rel))
	}
}

// decide finds the rule that decides whether a package may depend on
// path: the nearest doc.go with a line matching it, where an allow line
// beats a deny line of the same file. For a dependency that is not a
// direct import (linked), only "deny linked" lines forbid. It returns
// the denying line, or nil.
func (c *checker) decide(chain []*Rules, path string, linked bool) *Line {
	for _, r := range chain {
		var deny *Line
		allowed := false
		for i := range r.Lines {
			l := &r.Lines[i]
			applies := l.Verb == Allow || l.Verb == DenyLinked || (l.Verb == Deny && !linked)
			if !applies || !c.matchAny(l.Patterns, path) {
				continue
			}
			if l.Verb == Allow {
				allowed = true
			} else if deny == nil {
				deny = l
			}
		}
		if allowed {
			return nil
		}
		if deny != nil {
			return deny
		}
	}
	return nil
}

func (c *checker) matchAny(ps []Pattern, path string) bool {
	for _, p := range ps {
		if c.m.match(p, path) {
			return true
		}
	}
	return false
}

func (c *checker) checkImports(p *Package) {
	chain := c.chain(p.Rel)
	for _, imp := range p.Imports {
		if l := c.decide(chain, imp, false); l != nil {
			c.report(p.Rel, "%s imports %s: %s (rule in %s)", p.Rel, c.g.short(imp), l.Reason, c.where(l))
		}
	}
}

// checkLinked holds the package's indirect dependencies to its "deny
// linked" lines, naming the chain of imports that brings each one in.
func (c *checker) checkLinked(p *Package) {
	chain := c.chain(p.Rel)
	if !hasVerb(chain, DenyLinked) {
		return
	}
	direct := map[string]bool{}
	for _, imp := range p.Imports {
		direct[imp] = true
	}
	from := c.reach(p.Path)
	for _, dep := range sortedKeys(from) {
		if direct[dep] {
			continue
		}
		if l := c.decide(chain, dep, true); l != nil {
			c.report(p.Rel, "%s links %s (%s): %s (rule in %s)", p.Rel, c.g.short(dep), c.route(from, p.Path, dep), l.Reason, c.where(l))
		}
	}
}

func hasVerb(chain []*Rules, v Verb) bool {
	for _, r := range chain {
		for _, l := range r.Lines {
			if l.Verb == v {
				return true
			}
		}
	}
	return false
}

// reach walks the non-test imports from root breadth first and returns,
// for every package reached, the package that first imported it, so
// that route names a shortest chain.
func (c *checker) reach(root string) map[string]string {
	from := map[string]string{}
	queue := []string{root}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		p := c.g.Packages[cur]
		if p == nil {
			continue
		}
		for _, imp := range p.Imports {
			if _, seen := from[imp]; seen || imp == root {
				continue
			}
			from[imp] = cur
			queue = append(queue, imp)
		}
	}
	return from
}

func (c *checker) route(from map[string]string, root, dep string) string {
	steps := []string{c.g.short(dep)}
	for cur := from[dep]; cur != root; cur = from[cur] {
		steps = append(steps, c.g.short(cur))
	}
	steps = append(steps, c.g.short(root))
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	return strings.Join(steps, " → ")
}

// testsOnly returns the line that makes a package test support, or nil.
func (c *checker) testsOnly(rel string) *Line {
	for _, r := range c.chain(rel) {
		for i := range r.Lines {
			if r.Lines[i].Verb == TestsOnly {
				return &r.Lines[i]
			}
		}
	}
	return nil
}

func (c *checker) checkTestsOnly(p *Package) {
	if c.testsOnly(p.Rel) != nil {
		return
	}
	for _, imp := range p.Imports {
		q := c.g.Packages[imp]
		if q == nil || !q.Own {
			continue
		}
		if l := c.testsOnly(q.Rel); l != nil {
			c.report(p.Rel, "%s imports %s, which is for tests only (rule in %s)", p.Rel, q.Rel, c.where(l))
		}
	}
}

// uses reports whether the package's rules let it have the effect.
func (c *checker) uses(rel string, e Effect) bool {
	for _, r := range c.chain(rel) {
		for _, l := range r.Lines {
			for _, le := range l.Effects {
				if l.Verb == Uses && le == e {
					return true
				}
			}
		}
	}
	return false
}

func (c *checker) checkEffects(p *Package) {
	found, err := scanEffects(p.GoFiles)
	if err != nil {
		c.report(p.Rel, "%s: %v", p.Rel, err)
		return
	}
	for _, f := range found {
		if c.uses(p.Rel, f.effect) {
			continue
		}
		if f.effect == Init {
			c.report(p.Rel, "%s:%d: func init: packages have no init side effects; do the work where it is called, or state \"uses init # why\" in %s/doc.go",
				c.rel(f.pos.Filename), f.pos.Line, p.Rel)
			continue
		}
		c.report(p.Rel, "%s:%d: %s %s (%s): only the command line reads flags, the environment or the terminal; pass what is needed in, or state \"uses %s # why\" in %s/doc.go",
			c.rel(f.pos.Filename), f.pos.Line, p.Rel, effectVerb[f.effect], f.what, f.effect, p.Rel)
	}
}

var effectVerb = map[Effect]string{Flags: "reads the process's flags", Environment: "reads the environment", Terminal: "uses the terminal"}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
