package boundaries

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseDocFile reads rule blocks, and refuses the ones that would
// hold less than they seem to.
func TestParseDocFile(t *testing.T) {
	type line struct {
		Line     int
		Verb     Verb
		Patterns []string
		Effects  []Effect
		Reason   string
	}
	tests := map[string]struct {
		reason  string
		text    string
		want    []line
		wantErr string
	}{
		"every verb": {
			reason: "Each verb is read with its patterns or effects and its reason; the block ends at the first paragraph after it.",
			text: `// Package p does things.
//
// Imports:
//
//	deny internal/... k8s.io/... # p is a leaf
//	deny linked internal/command # links no command line
//	allow internal/addrs std
//
//	uses environment terminal # test support
//	tests only
//
// Not a rule: text after the block.
//
//	deny internal/planning # an indented line of a later block
package p
`,
			want: []line{
				{Line: 5, Verb: Deny, Patterns: []string{"internal/...", "k8s.io/..."}, Reason: "p is a leaf"},
				{Line: 6, Verb: DenyLinked, Patterns: []string{"internal/command"}, Reason: "links no command line"},
				{Line: 7, Verb: Allow, Patterns: []string{"internal/addrs", "std"}},
				{Line: 9, Verb: Uses, Effects: []Effect{Environment, Terminal}, Reason: "test support"},
				{Line: 10, Verb: TestsOnly},
			},
		},
		"no block": {
			reason: "A package comment with no rule block has no rules.",
			text:   "// Package p does things.\npackage p\n",
		},
		"no package comment": {
			reason:  "doc.go states the boundary; without a comment it states nothing.",
			text:    "package p\n",
			wantErr: "no package comment",
		},
		"empty block": {
			reason:  "A heading with nothing under it is a mistake, not an empty rule set.",
			text:    "// Package p.\n//\n// Imports:\n//\n// deny internal/... # indented by a space, not a tab\npackage p\n",
			wantErr: `doc.go:3: "Imports:" is followed by no rule lines`,
		},
		"two blocks": {
			reason:  "Rules are stated once per package.",
			text:    "// Package p.\n//\n// Imports:\n//\n//\tallow std\n//\n// Imports:\n//\n//\tallow std\npackage p\n",
			wantErr: `doc.go:7: a second "Imports:" block`,
		},
		"unknown effect": {
			reason:  "An effect the scanner does not know would allow nothing.",
			text:    "// Package p.\n//\n// Imports:\n//\n//\tuses network # calls out\npackage p\n",
			wantErr: `doc.go:5: uses "network": the effects are flags, environment, terminal and init`,
		},
		"deny linked with no pattern": {
			reason:  "A rule naming nothing holds nothing.",
			text:    "// Package p.\n//\n// Imports:\n//\n//\tdeny linked # links nothing\npackage p\n",
			wantErr: `doc.go:5: "deny" names nothing`,
		},
		"bad pattern": {
			reason:  "Patterns are import paths or paths from the module root.",
			text:    "// Package p.\n//\n// Imports:\n//\n//\tdeny ./internal # relative\npackage p\n",
			wantErr: `doc.go:5: pattern "./internal"`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "doc.go")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := ParseDocFile(path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s\nParseDocFile: got error %v, want one containing %q", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\nParseDocFile: %v", tc.reason, err)
			}
			var got []line
			if r != nil {
				for _, l := range r.Lines {
					gl := line{Line: l.Pos.Line, Verb: l.Verb, Effects: l.Effects, Reason: l.Reason}
					for _, p := range l.Patterns {
						gl.Patterns = append(gl.Patterns, p.Text)
					}
					got = append(got, gl)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nrules (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
