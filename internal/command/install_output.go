package command

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
)

// installOutput prints the lines of jobs that run in parallel (installs,
// and the list blocks of a query) in a
// fixed order: job i's lines reach out as soon as every job before it
// has finished, so the transcript is the same whatever order the work
// finished in (tests and users compare it). When out is a terminal,
// one more line at the bottom, rewritten in place with \r, shows the
// bytes of the download of the job whose lines are going straight out;
// it is cleared before any ordinary line is written and never appears
// anywhere but a terminal. It is safe for concurrent use.
type installOutput struct {
	mu       sync.Mutex
	out      io.Writer
	terminal bool
	pending  []bytes.Buffer
	finished []bool
	next     int // the first job not yet finished: its lines go straight out
	active   map[int]download
	shown    string // the progress text on screen now, "" when none
	// status, when not empty, is the progress text of work that is not a
	// download (a query's count of what it found), shown while no
	// download is.
	status string
}

// download is one job's package download in flight.
type download struct {
	label       string
	done, total int64
}

// progressFloor is the smallest download that gets a progress line: a
// package that arrives in a blink would only flicker.
const progressFloor = 1 << 20

func newInstallOutput(out io.Writer, jobs int, terminal bool) *installOutput {
	return &installOutput{out: out, terminal: terminal, pending: make([]bytes.Buffer, jobs),
		finished: make([]bool, jobs), active: map[int]download{}}
}

// printf writes a line of job i: now when i is the job being shown,
// else when its turn comes. A line ends the job's download, if any,
// as far as the progress line is concerned: a job prints before and
// after it downloads, not during.
func (o *installOutput) printf(i int, format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.active, i)
	if i != o.next {
		fmt.Fprintf(&o.pending[i], format, args...)
		return
	}
	o.clear()
	fmt.Fprintf(o.out, format, args...)
	o.render()
}

// finish marks job i done and writes the held lines of the jobs after
// it whose turn has come.
func (o *installOutput) finish(i int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.finished[i] = true
	delete(o.active, i)
	var held bytes.Buffer
	for o.next < len(o.finished) && o.finished[o.next] {
		o.next++
		if o.next < len(o.pending) {
			_, _ = o.pending[o.next].WriteTo(&held)
		}
	}
	if held.Len() > 0 {
		o.clear()
		_, _ = held.WriteTo(o.out)
	}
	o.render()
}

// progress records that job i's download of label has done of total
// bytes (total -1: unknown); a complete download leaves the line.
// Without a terminal it does nothing.
func (o *installOutput) progress(i int, label string, done, total int64) {
	if !o.terminal {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if total >= 0 && done >= total {
		delete(o.active, i) // arrived: what is left (unpacking) is quick
	} else {
		o.active[i] = download{label: label, done: done, total: total}
	}
	o.render()
}

// setStatus makes text the progress line (none when ""), on a terminal
// only.
func (o *installOutput) setStatus(text string) {
	if !o.terminal {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status = text
	o.render()
}

// render shows the download of the job whose lines are on screen (a
// later job's "- Installing" line is still held back, so its bytes
// would name a package the user has not seen yet), when it is large
// enough, rewriting the line only when its text changed.
func (o *installOutput) render() {
	if !o.terminal {
		return
	}
	text := o.status
	if d, ok := o.active[o.next]; ok && (d.total < 0 || d.total >= progressFloor) {
		text = progressText(d)
	}
	if text == "" {
		o.clear()
		return
	}
	if text == o.shown {
		return
	}
	pad := ""
	if n := len(o.shown) - len(text); n > 0 {
		pad = strings.Repeat(" ", n) + strings.Repeat("\b", n)
	}
	fmt.Fprintf(o.out, "\r%s%s", text, pad)
	o.shown = text
}

// clear blanks the progress line so that an ordinary line starts at the
// left margin of an empty row.
func (o *installOutput) clear() {
	if o.shown == "" {
		return
	}
	fmt.Fprintf(o.out, "\r%s\r", strings.Repeat(" ", len(o.shown)))
	o.shown = ""
}

// progressText is "- Downloading hashicorp/aws v6.0.0 (23.4 MiB of
// 120.1 MiB)", or "(23.4 MiB)" when the size is unknown.
func progressText(d download) string {
	if d.total < 0 {
		return fmt.Sprintf("- Downloading %s (%s)", d.label, mib(d.done))
	}
	return fmt.Sprintf("- Downloading %s (%s of %s)", d.label, mib(d.done), mib(d.total))
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
