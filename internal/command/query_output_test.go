package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/planning"
)

// TestQueryOutput reports two lists as parallel listings would, the
// second finishing first, to a fake terminal and to a pipe: the lines
// come out list by list in list order either way, and only the terminal
// gets the progress line (lists done, objects found), cleared before
// each line and at the end.
func TestQueryOutput(t *testing.T) {
	lists := []*configs.List{{Type: "t", Name: "a"}, {Type: "t", Name: "b"}}
	found := func(l *configs.List, name string) planning.QueryResult {
		return planning.QueryResult{List: l, Identity: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)}), DisplayName: name}
	}
	script := func(o *queryOutput) {
		o.ListStarted(0)
		o.ListStarted(1)
		o.Found(1, found(lists[1], "b1"))
		o.Found(0, found(lists[0], "a1"))
		o.ListDone(1, 1, nil)
		o.Found(0, found(lists[0], "a2"))
		o.ListDone(0, 2, nil)
		o.close()
	}
	lines := "list.t.a   name=a1   a1\nlist.t.a   name=a2   a2\nlist.t.b   name=b1   b1\n"
	progress := func(s string) string { return "\r" + s }
	clear := func(n int) string { return "\r" + strings.Repeat(" ", n) + "\r" }
	cases := map[string]struct {
		reason   string
		terminal bool
		want     string
	}{
		"pipe": {reason: "lines only, in list order", want: lines},
		"terminal": {
			reason:   "a progress line at each list done, cleared before lines (held ones too) and at the end",
			terminal: true,
			want: "list.t.a   name=a1   a1\n" +
				progress("Querying... 1 of 2 lists done, 2 found") + clear(38) +
				"list.t.a   name=a2   a2\n" +
				progress("Querying... 1 of 2 lists done, 2 found") + clear(38) +
				"list.t.b   name=b1   b1\n" +
				progress("Querying... 1 of 2 lists done, 2 found") +
				progress("Querying... 2 of 2 lists done, 3 found") + clear(38),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			o := &queryOutput{m: &Meta{Streams: Streams{Stdout: &buf}}, lists: lists, fromFile: 2,
				results: make([][]planning.QueryResult, 2), counts: make([]int, 2), started: make([]bool, 2), out: newInstallOutput(&buf, 2, tc.terminal)}
			script(o)
			if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
				t.Errorf("%s: output -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
