package getproviders

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
)

// Constraint is one term of a provider version constraint such as
// "~> 1.2" or "!= 1.2.0".
type Constraint struct {
	// Op is "", "=", "!=", ">", ">=", "<", "<=" or "~>"; "" and "=" both
	// mean an exact match and render as "".
	Op string
	// Version is the boundary with omitted parts as zero.
	Version *version.Version
	// Segments counts the numeric parts written (1 to 3); it decides how
	// wide "~>" is ("~> 1.2" allows 1.x, "~> 1.2.0" allows 1.2.x).
	Segments int
}

// Constraints is a set of terms that must all hold, gathered from every
// module that requires a provider.
type Constraints []Constraint

var constraintTerm = regexp.MustCompile(`^(=|!=|>=|<=|>|<|~>)?\s*([0-9]+(?:\.[0-9]+){0,2})(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// ParseConstraints parses a comma-separated version constraint string as
// written in required_providers or a lock file. The error is for the user
// and names the term that does not parse.
func ParseConstraints(s string) (Constraints, error) {
	var cs Constraints
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, term := range strings.Split(s, ",") {
		term = strings.TrimSpace(term)
		m := constraintTerm.FindStringSubmatch(term)
		if m == nil {
			return nil, fmt.Errorf("invalid version constraint %q", term)
		}
		v, err := version.NewVersion(m[2] + m[3] + m[4])
		if err != nil {
			return nil, fmt.Errorf("invalid version constraint %q: %w", term, err)
		}
		op := m[1]
		if op == "=" {
			op = ""
		}
		cs = append(cs, Constraint{Op: op, Version: v, Segments: strings.Count(m[2], ".") + 1})
	}
	return cs, nil
}

// Allows reports whether v meets every term. A pre-release version is
// allowed only by a term naming exactly that pre-release, as Terraform
// decides.
func (cs Constraints) Allows(v *version.Version) bool {
	if v.Prerelease() != "" && !cs.namesExactly(v) {
		return false
	}
	for _, c := range cs {
		if !c.allows(v) {
			return false
		}
	}
	return true
}

func (cs Constraints) namesExactly(v *version.Version) bool {
	for _, c := range cs {
		if c.Op == "" && c.Version.Equal(v) {
			return true
		}
	}
	return false
}

func (c Constraint) allows(v *version.Version) bool {
	cmp := v.Compare(c.Version)
	switch c.Op {
	case "":
		return cmp == 0
	case "!=":
		return cmp != 0
	case ">":
		return cmp > 0
	case ">=":
		return cmp >= 0
	case "<":
		return cmp < 0
	case "<=":
		return cmp <= 0
	default: // "~>"
		return cmp >= 0 && v.Compare(c.upperBound()) < 0
	}
}

// upperBound is the first version a "~>" term excludes: "~> 1.2" stops
// before 2.0.0, "~> 1.2.3" before 1.3.0 and "~> 1" before 2.0.0.
func (c Constraint) upperBound() *version.Version {
	s := c.Version.Segments()
	if c.Segments >= 3 {
		return version.Must(version.NewVersion(fmt.Sprintf("%d.%d.0", s[0], s[1]+1)))
	}
	return version.Must(version.NewVersion(fmt.Sprintf("%d.0.0", s[0]+1)))
}

// opPriority orders terms sharing a boundary, as Terraform's lock file does.
func (c Constraint) opPriority() int {
	switch c.Op {
	case ">":
		return 1
	case ">=":
		return 2
	case "":
		return 3
	case "~>":
		if c.Segments >= 3 {
			return 4
		}
		return 5
	case "<=":
		return 6
	case "<":
		return 7
	default: // "!="
		return 8
	}
}

// String renders the terms in Terraform's normalized form, the form its
// lock file requires: duplicates removed, sorted by boundary then operator,
// versions with three parts except the two-part "~> MAJOR.MINOR".
func (cs Constraints) String() string {
	seen := map[string]bool{}
	var terms []Constraint
	for _, c := range cs {
		if k := c.term(); !seen[k] {
			seen[k] = true
			terms = append(terms, c)
		}
	}
	sort.SliceStable(terms, func(i, j int) bool {
		if cmp := terms[i].Version.Compare(terms[j].Version); cmp != 0 {
			return cmp < 0
		}
		return terms[i].opPriority() < terms[j].opPriority()
	})
	parts := make([]string, len(terms))
	for i, c := range terms {
		parts[i] = c.term()
	}
	return strings.Join(parts, ", ")
}

func (c Constraint) term() string {
	s := c.Version.Segments()
	num := fmt.Sprintf("%d.%d.%d", s[0], s[1], s[2])
	if c.Op == "~>" && c.Segments < 3 {
		num = fmt.Sprintf("%d.%d", s[0], s[1])
	}
	if pre := c.Version.Prerelease(); pre != "" {
		num += "-" + pre
	}
	if meta := c.Version.Metadata(); meta != "" {
		num += "+" + meta
	}
	if c.Op == "" {
		return num
	}
	return c.Op + " " + num
}

// Newest returns the highest of versions that cs allows, or nil when none
// does. Versions that fail to parse are skipped by the caller.
func Newest(versions []*version.Version, cs Constraints) *version.Version {
	var best *version.Version
	for _, v := range versions {
		if cs.Allows(v) && (best == nil || v.GreaterThan(best)) {
			best = v
		}
	}
	return best
}
