package command

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/diags"
)

// TestInstallOutput drives installOutput as three parallel jobs would,
// finishing out of order, against a fake terminal and a pipe: the lines
// come out in job order either way, and only the terminal gets the
// progress line, rewritten in place and cleared before each line.
func TestInstallOutput(t *testing.T) {
	const mb = 1 << 20
	script := func(o *installOutput) {
		o.printf(0, "- Installing a v1...\n")
		o.printf(1, "- Installing b v1...\n")
		o.progress(1, "b v1", 0, 4*mb)       // b's lines are held back: not shown
		o.progress(0, "a v1", mb+mb/2, 3*mb) // the job on screen: shown
		o.progress(2, "c v1", 10, 100)       // below the floor: never shown
		o.printf(2, "- Installed c v1 (ok)\n")
		o.finish(2)
		o.progress(0, "a v1", 3*mb, 3*mb)
		o.printf(0, "- Installed a v1 (ok)\n")
		o.finish(0)
		o.progress(1, "b v1", 2*mb, -1)
		o.printf(1, "- Installed b v1 (ok)\n")
		o.finish(1)
	}
	cases := map[string]struct {
		reason   string
		terminal bool
		want     string
	}{
		"pipe": {
			reason: "no progress text at all, lines in job order",
			want: "- Installing a v1...\n- Installed a v1 (ok)\n" +
				"- Installing b v1...\n- Installed b v1 (ok)\n" +
				"- Installed c v1 (ok)\n",
		},
		"terminal": {
			reason:   "progress rewritten in place with \\r, padded over longer text, cleared before lines",
			terminal: true,
			want: "- Installing a v1...\n" +
				"\r- Downloading a v1 (1.5 MiB of 3.0 MiB)" +
				"\r" + strings.Repeat(" ", 39) + "\r- Installed a v1 (ok)\n" +
				"- Installing b v1...\n" +
				"\r- Downloading b v1 (0.0 MiB of 4.0 MiB)" +
				"\r- Downloading b v1 (2.0 MiB)" + strings.Repeat(" ", 11) + strings.Repeat("\b", 11) +
				"\r" + strings.Repeat(" ", 28) + "\r- Installed b v1 (ok)\n" +
				"- Installed c v1 (ok)\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			script(newInstallOutput(&buf, 3, tc.terminal))
			if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
				t.Errorf("%s: output -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestRunParallel checks that the first job to fail cancels the one
// still running, which is not reported, and that warnings of every job
// come back in job order.
func TestRunParallel(t *testing.T) {
	var sawCancel atomic.Bool
	started, ran2 := make(chan struct{}), make(chan struct{})
	var finished []int
	var doneOrder = make(chan int, 3)
	ds := runParallel(3, func(ctx context.Context, i int) diags.Diagnostics {
		switch i {
		case 0:
			close(started)
			<-ctx.Done() // waits until job 1 fails
			sawCancel.Store(errors.Is(ctx.Err(), context.Canceled))
			return diags.Diagnostics{diags.Errorf("job 0", "canceled")}
		case 1:
			<-started
			<-ran2 // else job 2 may be skipped, its warning unsaid
			return diags.Diagnostics{{Severity: diags.Warning, Summary: "warn 1"}, diags.Errorf("job 1", "failed")}
		default:
			close(ran2)
			return diags.Diagnostics{{Severity: diags.Warning, Summary: "warn 2"}}
		}
	}, func(i int) { doneOrder <- i })
	close(doneOrder)
	for i := range doneOrder {
		finished = append(finished, i)
	}
	if !sawCancel.Load() {
		t.Error("job 0 was not canceled by job 1's failure")
	}
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Severity)+" "+d.Summary)
	}
	if diff := cmp.Diff([]string{"W warn 1", "E job 1", "W warn 2"}, got); diff != "" {
		t.Errorf("diagnostics -want +got:\n%s", diff)
	}
	if len(finished) != 3 {
		t.Errorf("done was called for %v, want every job", finished)
	}
}
