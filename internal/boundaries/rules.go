package boundaries

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
)

// heading is the line of a package comment that opens its rule block.
const heading = "Imports:"

// Verb is what one rule line says.
type Verb int

const (
	// Deny forbids the package to import what the patterns match.
	Deny Verb = iota
	// DenyLinked forbids what the patterns match anywhere among the
	// package's dependencies: what a binary links, not only what it
	// imports.
	DenyLinked
	// Allow makes exceptions to the deny lines of the same doc.go and of
	// the doc.go files above it.
	Allow
	// Uses lets the package do what only the command line may: read
	// flags, the environment or the terminal, or run an init function.
	Uses
	// TestsOnly says only test files and other test-support packages
	// import the package.
	TestsOnly
)

// Effect is something only the command line may do.
type Effect string

// The effects a Uses line names.
const (
	Flags       Effect = "flags"
	Environment Effect = "environment"
	Terminal    Effect = "terminal"
	Init        Effect = "init"
)

var effects = map[Effect]bool{Flags: true, Environment: true, Terminal: true, Init: true}

// Line is one rule of a doc.go's block.
type Line struct {
	Pos      token.Position // doc.go and the line the rule is on
	Verb     Verb
	Patterns []Pattern // Deny, DenyLinked, Allow
	Effects  []Effect  // Uses
	// Reason is the text after "#": what a crossing's message says.
	Reason string
}

// Rules are the rule lines of one package's doc.go, in order.
type Rules struct {
	File  string
	Lines []Line
}

// ParseDocFile reads the rule block of a doc.go. It returns nil rules
// and no error when the package comment has no block, and an error when
// the file has no package comment at all or a rule line is malformed,
// because a rule the checker cannot read would silently hold nothing.
func ParseDocFile(path string) (*Rules, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if f.Doc == nil {
		return nil, fmt.Errorf("%s: no package comment: a doc.go states the package's boundary", path)
	}
	return parseBlock(path, commentLines(fset, f.Doc))
}

// commentLine is the text of one line of a comment, without the comment
// markers, and its position.
type commentLine struct {
	pos  token.Position
	text string
}

func commentLines(fset *token.FileSet, doc *ast.CommentGroup) []commentLine {
	var out []commentLine
	for _, c := range doc.List {
		pos := fset.Position(c.Slash)
		if strings.HasPrefix(c.Text, "//") {
			out = append(out, commentLine{pos, c.Text[2:]})
			continue
		}
		for i, text := range strings.Split(strings.TrimSuffix(c.Text[2:], "*/"), "\n") {
			p := pos
			p.Line += i
			out = append(out, commentLine{p, text})
		}
	}
	return out
}

// parseBlock finds the heading line and reads the indented lines that
// follow it (a code block, as go doc shows it). The block ends at the
// first line that is neither blank nor indented.
func parseBlock(path string, lines []commentLine) (*Rules, error) {
	start := -1
	for i, l := range lines {
		if strings.TrimSpace(l.text) == heading {
			if start >= 0 {
				return nil, fmt.Errorf("%s:%d: a second %q block; a package states its rules once", path, l.pos.Line, heading)
			}
			start = i
		}
	}
	if start < 0 {
		return nil, nil
	}
	rules := &Rules{File: path}
	for _, l := range lines[start+1:] {
		if strings.TrimSpace(l.text) == "" {
			continue
		}
		if !strings.HasPrefix(l.text, "\t") {
			break
		}
		line, err := parseLine(l.text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, l.pos.Line, err)
		}
		line.Pos = l.pos
		rules.Lines = append(rules.Lines, line)
	}
	if len(rules.Lines) == 0 {
		return nil, fmt.Errorf("%s:%d: %q is followed by no rule lines (each indented by a tab)", path, lines[start].pos.Line, heading)
	}
	return rules, nil
}

// parseLine reads "VERB WORD... # reason".
func parseLine(text string) (Line, error) {
	body, reason, _ := strings.Cut(text, "#")
	line := Line{Reason: strings.TrimSpace(reason)}
	words := strings.Fields(body)
	if len(words) == 0 {
		return line, fmt.Errorf("a rule line with no verb")
	}
	verb, args := words[0], words[1:]
	switch {
	case verb == "deny" && len(args) > 0 && args[0] == "linked":
		line.Verb, args = DenyLinked, args[1:]
	case verb == "deny":
		line.Verb = Deny
	case verb == "allow":
		line.Verb = Allow
	case verb == "uses":
		line.Verb = Uses
	case verb == "tests" && len(args) == 1 && args[0] == "only":
		line.Verb, args = TestsOnly, nil
		return line, nil
	default:
		return line, fmt.Errorf("unknown rule %q: a line is deny, deny linked, allow, uses or tests only", verb)
	}
	if len(args) == 0 {
		return line, fmt.Errorf("%q names nothing", verb)
	}
	if (line.Verb == Deny || line.Verb == DenyLinked || line.Verb == Uses) && line.Reason == "" {
		return line, fmt.Errorf("%q needs a reason after \"#\": it is what a crossing's message says", verb)
	}
	if line.Verb == Uses {
		for _, a := range args {
			if !effects[Effect(a)] {
				return line, fmt.Errorf("uses %q: the effects are flags, environment, terminal and init", a)
			}
			line.Effects = append(line.Effects, Effect(a))
		}
		return line, nil
	}
	for _, a := range args {
		p, err := ParsePattern(a)
		if err != nil {
			return line, err
		}
		line.Patterns = append(line.Patterns, p)
	}
	return line, nil
}
