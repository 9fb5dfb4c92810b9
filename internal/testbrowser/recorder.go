package testbrowser

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
)

// recorder collects what a self-contained page must not do: requests to
// the network (or to any file but its own) and errors in its console. The
// browser's event loop adds to it; the test goroutine reports it.
type recorder struct {
	pageURL string

	mu       sync.Mutex
	problems []string
	seen     map[string]bool // problems already recorded, so a request seen twice is reported once
	reported int             // problems[:reported] went to a test already
}

func newRecorder(pageURL string) *recorder {
	return &recorder{pageURL: pageURL, seen: map[string]bool{}}
}

// allowed reports whether a page may load url without leaving itself: its
// own document, and the schemes whose content is in the page already.
func (r *recorder) allowed(url string) bool {
	if url == r.pageURL {
		return true
	}
	for _, scheme := range []string{"data:", "about:", "blob:"} {
		if strings.HasPrefix(url, scheme) {
			return true
		}
	}
	return false
}

func (r *recorder) add(problem string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen[problem] {
		return
	}
	r.seen[problem] = true
	r.problems = append(r.problems, problem)
}

// request records url when the page may not load it, and says whether
// it may.
func (r *recorder) request(url string) bool {
	if r.allowed(url) {
		return true
	}
	r.add("the page made a network request: " + url)
	return false
}

// event records what one DevTools event says against the page. It runs on
// chromedp's event loop, so it only looks and records.
func (r *recorder) event(ev any) {
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.request(ev.Request.URL)
	case *network.EventWebSocketCreated:
		r.request(ev.URL)
	case *fetch.EventRequestPaused:
		r.request(ev.Request.URL)
	case *runtime.EventExceptionThrown:
		r.add("uncaught exception: " + exceptionText(ev.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			r.add(fmt.Sprintf("console.%s: %s", ev.Type, argsText(ev.Args)))
		}
	case *log.EventEntryAdded:
		// Failed loads are logged by the network source too; the request
		// itself is what is reported.
		if e := ev.Entry; e.Level == log.EntryLevelError && e.Source != log.EntrySourceNetwork {
			r.add(fmt.Sprintf("browser log error (%s): %s %s", e.Source, e.Text, e.URL))
		}
	}
}

// report hands the problems not yet reported to t as errors.
func (r *recorder) report(t testing.TB) {
	t.Helper()
	r.mu.Lock()
	fresh := r.problems[r.reported:]
	r.reported = len(r.problems)
	r.mu.Unlock()
	for _, p := range fresh {
		t.Errorf("%s: %s", r.pageURL, p)
	}
}

// exceptionText is the message of an uncaught exception and where it was
// thrown.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		first, _, _ := strings.Cut(d.Exception.Description, "\n")
		text += " " + first
	}
	return fmt.Sprintf("%s (%s:%d:%d)", text, d.URL, d.LineNumber+1, d.ColumnNumber+1)
}

// argsText is a console call's arguments as text.
func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		var str string
		switch {
		case a == nil:
		case a.Type == runtime.RemoteObjectTypeString && json.Unmarshal(a.Value, &str) == nil:
			parts = append(parts, str)
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}
