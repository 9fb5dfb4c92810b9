package testbrowser

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// actionTimeout bounds each thing a test asks of a page, so a page that
// never loads or a selector that never matches fails the test with the
// step that hung instead of the binary's timeout.
const actionTimeout = 60 * time.Second

// Page is one tab showing one file. Every method reports, as errors of the
// test it is given, the network requests, console errors and uncaught
// exceptions the page produced since the last report.
type Page struct {
	ctx    context.Context // the tab's chromedp context
	cancel context.CancelFunc
	rec    *recorder
}

// Open shows the file at path in a new tab and waits for its load event.
// The tab closes when the test ends, after a last report.
func (b *Browser) Open(t testing.TB, path string) *Page {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	pageURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	ctx, cancel := chromedp.NewContext(b.ctx)
	p := &Page{ctx: ctx, cancel: cancel, rec: newRecorder(pageURL)}
	t.Cleanup(func() { p.Close(t) })
	if err := chromedp.Listen(ctx, p.listen); err != nil {
		t.Fatalf("opening a tab for %s: %v", pageURL, err)
	}
	// Every request pauses in the browser until the harness lets it
	// through or fails it, so nothing leaves the machine, whichever
	// scheme or initiator it has.
	pattern := []*fetch.RequestPattern{{URLPattern: "*"}}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: pattern}); err != nil {
		t.Fatalf("intercepting the requests of %s: %v", pageURL, err)
	}
	p.Run(t, chromedp.Navigate(pageURL))
	return p
}

// OpenHTML writes html to a file of the test's temporary directory and
// opens it.
func (b *Browser) OpenHTML(t testing.TB, html string) *Page {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "page-*.html")
	if err == nil {
		_, err = f.WriteString(html)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Open(t, f.Name())
}

// listen records each event of the tab, and answers each paused request.
// It runs on chromedp's event loop, which must not wait for a command, so
// the answer is sent from a goroutine of its own.
func (p *Page) listen(ev any) {
	p.rec.event(ev)
	if paused, ok := ev.(*fetch.EventRequestPaused); ok {
		go p.resolve(paused.RequestID, p.rec.allowed(paused.Request.URL))
	}
}

// resolve lets a paused request through or fails it. An error means the
// tab is gone, and with it the request.
func (p *Page) resolve(id fetch.RequestID, allow bool) {
	if allow {
		_, _ = chromedp.Call(p.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		return
	}
	_, _ = chromedp.Call(p.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonBlockedByClient})
}

// Context is the tab's chromedp context, for what the methods here do
// not cover. Bound each use with a timeout derived from it.
func (p *Page) Context() context.Context { return p.ctx }

// Check reports what the page did wrong since the last report.
func (p *Page) Check(t testing.TB) {
	t.Helper()
	p.rec.report(t)
}

// Close reports what is left to report and closes the tab. Open
// registers it with t.Cleanup; closing twice is harmless.
func (p *Page) Close(t testing.TB) {
	t.Helper()
	p.rec.report(t)
	p.cancel()
}

// Run runs chromedp actions in the tab, failing the test at the first
// error.
func (p *Page) Run(t testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	err := chromedp.Do(ctx, actions...)
	p.rec.report(t)
	if err != nil {
		t.Fatalf("%s: %v", p.rec.pageURL, err)
	}
}

// Eval evaluates a JavaScript expression in the page, awaiting it when it
// is a promise, and decodes its JSON value into out (unless out is nil).
// An exception fails the test.
func (p *Page) Eval(t testing.TB, js string, out any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](js, chromedp.EvalAwaitPromise))
	p.rec.report(t)
	if err != nil {
		t.Fatalf("evaluating %.200q: %v", js, err)
	}
	if out == nil {
		return
	}
	if len(raw) == 0 {
		t.Fatalf("evaluating %.200q: undefined, want a value for %T", js, out)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("evaluating %.200q: decoding %s into %T: %v", js, raw, out, err)
	}
}

// Click clicks the first element that matches the CSS selector, once it
// is visible.
func (p *Page) Click(t testing.TB, selector string) {
	t.Helper()
	p.Run(t, chromedp.Click(chromedp.CSS(selector)))
}

// Timing is what the page's Navigation Timing says about its load, in
// milliseconds from the start of the navigation.
type Timing struct {
	DOMContentLoaded     float64 `json:"domContentLoaded"` // the document parsed and its scripts ran
	Load                 float64 `json:"load"`             // the load event's handlers finished
	FirstContentfulPaint float64 `json:"firstContentfulPaint"`
}

// timingJS waits for the load event's end, which Navigation Timing sets
// only after the handlers have run, and reads the marks.
const timingJS = `(async () => {
	const nav = () => performance.getEntriesByType("navigation")[0];
	while (!nav() || nav().loadEventEnd === 0) await new Promise(r => setTimeout(r, 10));
	const fcp = performance.getEntriesByName("first-contentful-paint")[0];
	return {domContentLoaded: nav().domContentLoadedEventEnd, load: nav().loadEventEnd,
		firstContentfulPaint: fcp ? fcp.startTime : 0};
})()`

// Timing reads the page's load timing, for tests that report how long a
// page takes to open (reported, never asserted: the machine's load is
// not the page's).
func (p *Page) Timing(t testing.TB) Timing {
	t.Helper()
	var tm Timing
	p.Eval(t, timingJS, &tm)
	return tm
}

// fileName turns a test or screenshot name into one path element:
// subtests' slashes and anything a file system or a shell might take
// badly become underscores.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("_.,=+-", r):
			return r
		}
		return '_'
	}, name)
}

// Screenshot writes a PNG of the whole page, beyond the viewport, to
// $CAIRN_TEST_ARTIFACTS/<test name>/<name>.png when that is set (CI
// keeps the directory), else to the test's temporary directory, and
// returns its path.
func (p *Page) Screenshot(t testing.TB, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, actionTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", p.rec.pageURL, err)
	}
	dir := t.TempDir()
	if root := os.Getenv("CAIRN_TEST_ARTIFACTS"); root != "" {
		dir = filepath.Join(root, fileName(t.Name()))
	}
	path := filepath.Join(dir, fileName(name)+".png")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
