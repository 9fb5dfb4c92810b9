package testbrowser

import (
	"bytes"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeTB records the errors the harness reports, so a test can check that
// the harness fails a page without failing itself. Everything else goes
// to the real test.
type fakeTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Error(args ...any) { f.Errorf("%s", fmt.Sprint(args...)) }

func (f *fakeTB) reported() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.errors...)
}

// settle lets the page's timers and promises that were pending at load
// run, so what they do is recorded before the check.
const settle = `new Promise(r => setTimeout(r, 100))`

// TestOpenReportsWhatAPageMustNotDo opens pages that reach the network or
// fail in their scripts and checks that the harness names each problem,
// and that a self-contained page gets no report.
func TestOpenReportsWhatAPageMustNotDo(t *testing.T) {
	b := New(t)
	tests := []struct {
		name string
		html string
		eval string // run after load, before the check
		want []string
	}{
		{name: "self-contained", html: `<p>ok</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">` +
			`<script>console.log("fine"); console.warn("also fine")</script>`},
		{name: "image", html: `<img src="http://127.0.0.1:1/x.png">`, want: []string{"network request: http://127.0.0.1:1/x.png"}},
		{name: "stylesheet", html: `<link rel="stylesheet" href="https://cdn.example.invalid/a.css"><p>x</p>`,
			want: []string{"network request: https://cdn.example.invalid/a.css"}},
		{name: "fetch", html: `<p>x</p>`, eval: `fetch("http://127.0.0.1:1/x").then(() => "loaded", () => "failed")`,
			want: []string{"network request: http://127.0.0.1:1/x"}},
		{name: "another file", html: `<script src="other.js"></script>`, want: []string{"network request: file://", "/other.js"}},
		{name: "uncaught exception", html: `<script>noSuchFunction()</script>`, want: []string{"uncaught exception", "noSuchFunction is not defined"}},
		{name: "unhandled rejection", html: `<script>Promise.reject(new Error("nobody caught me"))</script>`, eval: settle,
			want: []string{"uncaught exception", "nobody caught me"}},
		{name: "console error", html: `<script>console.error("broken", 42)</script>`, want: []string{"console.error: broken 42"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeTB{TB: t}
			p := b.OpenHTML(fake, tt.html)
			if tt.eval != "" {
				p.Eval(fake, tt.eval, nil)
			}
			p.Check(fake)
			got := strings.Join(fake.reported(), "\n")
			if len(tt.want) == 0 && got != "" {
				t.Errorf("a self-contained page was reported:\n%s", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("reported:\n%s\nwant it to contain %q", got, w)
				}
			}
		})
	}
}

// TestOpenBlocksRequests checks that a request is failed in the browser,
// not merely reported: a server on loopback never hears from the page.
func TestOpenBlocksRequests(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "hello")
	}))
	defer srv.Close()
	b := New(t)
	fake := &fakeTB{TB: t}
	p := b.OpenHTML(fake, `<img src="`+srv.URL+`/img.png">`)
	var got string
	p.Eval(fake, `fetch("`+srv.URL+`/x").then(r => r.text(), e => "failed: " + e.message)`, &got)
	p.Check(fake)
	if got == "hello" || hits.Load() != 0 {
		t.Errorf("the page reached the server (%d requests, fetch gave %q)", hits.Load(), got)
	}
	reported := strings.Join(fake.reported(), "\n")
	for _, path := range []string{"/img.png", "/x"} {
		if !strings.Contains(reported, srv.URL+path) {
			t.Errorf("reported:\n%s\nwant %s", reported, srv.URL+path)
		}
	}
	t.Logf("reported:\n%s", reported)
}

// TestEvalAndClick drives a page: a click runs its handler, and Eval reads
// the result back as JSON.
func TestEvalAndClick(t *testing.T) {
	b := New(t)
	p := b.OpenHTML(t, `<button id="b" onclick="this.dataset.n = +(this.dataset.n || 0) + 1">click</button>`)
	p.Click(t, "#b")
	p.Click(t, "#b")
	var got struct {
		N     string `json:"n"`
		Title string `json:"title"`
	}
	p.Eval(t, `({n: document.getElementById("b").dataset.n, title: document.title})`, &got)
	if got.N != "2" {
		t.Errorf("after two clicks the counter is %q, want \"2\"", got.N)
	}
	var sum int
	p.Eval(t, `Promise.resolve(40 + 2)`, &sum)
	if sum != 42 {
		t.Errorf("an awaited promise gave %d, want 42", sum)
	}
	tm := p.Timing(t)
	if tm.Load <= 0 || tm.DOMContentLoaded <= 0 || tm.Load < tm.DOMContentLoaded {
		t.Errorf("timing %+v: want 0 < domContentLoaded <= load", tm)
	}
	t.Logf("timing of a small page: %+v", tm)
}

// TestScreenshot checks that a screenshot is a PNG of the whole page, not
// only the viewport, and lands in $CAIRN_TEST_ARTIFACTS when that is set.
func TestScreenshot(t *testing.T) {
	artifacts := t.TempDir()
	t.Setenv("CAIRN_TEST_ARTIFACTS", artifacts)
	b := New(t)
	p := b.OpenHTML(t, `<body style="margin:0"><div style="width:300px;height:2000px;background:#c33"></div></body>`)
	path := p.Screenshot(t, "tall page")
	want := filepath.Join(artifacts, "TestScreenshot", "tall_page.png")
	if path != want {
		t.Errorf("screenshot at %s, want %s", path, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if h := img.Bounds().Dy(); h < 2000 {
		t.Errorf("screenshot is %d pixels high, want the whole 2000-pixel page", h)
	}
}
