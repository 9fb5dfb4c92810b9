package explorer

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/testbrowser"
	"github.com/chromedp/chromedp"
)

// TestScreenshot photographs a page for the README: scripts/screenshot.sh
// writes a demo plan's page and names it in CAIRN_SCREENSHOT_PAGE, the
// image to write in CAIRN_SCREENSHOT_OUT, and the label of the graph node
// to click (so the image shows a blast radius) in CAIRN_SCREENSHOT_NODE;
// CAIRN_SCREENSHOT_OPEN names a change to open too. Without them the test
// is skipped.
func TestScreenshot(t *testing.T) {
	page, out := os.Getenv("CAIRN_SCREENSHOT_PAGE"), os.Getenv("CAIRN_SCREENSHOT_OUT")
	if page == "" || out == "" {
		t.Skip("run by scripts/screenshot.sh")
	}
	b := testbrowser.New(t)
	p := b.Open(t, page)
	p.Run(t, chromedp.EmulateViewport(1440, 1000))
	if label := os.Getenv("CAIRN_SCREENSHOT_NODE"); label != "" {
		var id string
		p.Eval(t, `(() => { const n = Array.from(document.querySelectorAll("#graph g.node")).find(n => n.querySelector("title").textContent === `+jsString(label)+`); return n ? n.dataset.node : "" })()`, &id)
		if id == "" {
			t.Fatalf("no graph node is labelled %q", label)
		}
		p.Click(t, `#graph g.node[data-node="`+id+`"]`)
	}
	p.Click(t, "#zoom-fit")
	if addr := os.Getenv("CAIRN_SCREENSHOT_OPEN"); addr != "" {
		p.Eval(t, `(() => { const a = Array.from(document.querySelectorAll("#changes .addr")).find(a => a.textContent === `+jsString(addr)+`); if (a) a.closest("details").open = true; return !!a })()`, nil)
	}
	// The highlight of the change opened fades after a second.
	time.Sleep(1500 * time.Millisecond)
	p.Eval(t, `window.scrollTo(0, 0), true`, nil)
	ctx, cancel := context.WithTimeout(p.Context(), time.Minute)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
