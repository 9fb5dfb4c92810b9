package testbrowser

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// defaultChromium is where Debian's chromium package puts the browser.
const defaultChromium = "/usr/bin/chromium"

// startTimeout bounds the browser's start: a browser that does not answer
// within it fails the test rather than hanging until the test binary's
// timeout.
const startTimeout = 60 * time.Second

// Browser is one headless Chromium process. Each Open is a tab of it.
type Browser struct {
	ctx context.Context // the chromedp context of the browser's first tab
}

// ExecPath returns the Chromium binary the tests use: $CAIRN_CHROMIUM, or
// /usr/bin/chromium. It returns "" when neither exists.
func ExecPath() string {
	for _, p := range []string{os.Getenv("CAIRN_CHROMIUM"), defaultChromium} {
		if p == "" {
			continue
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// flags are the command-line switches Chromium runs with. Without the
// background-networking switches Chromium connects to Google's services on
// its own (updates, sync, field trials), which a closed network answers
// with nothing but timeouts and which a test must not depend on.
func flags(userDataDir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("safebrowsing-disable-auto-update", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.WindowSize(1280, 900),
		chromedp.UserDataDir(userDataDir),
	}
}

// New starts a headless Chromium for the test and stops it when the test
// ends. It skips the test when no Chromium is installed.
func New(t testing.TB) *Browser {
	t.Helper()
	exe := ExecPath()
	if exe == "" {
		t.Skipf("no Chromium at $CAIRN_CHROMIUM or %s: run scripts/install-chromium.sh (make test does)", defaultChromium)
	}
	opts := append(flags(filepath.Join(t.TempDir(), "chromium-profile")), chromedp.ExecPath(exe))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Run starts the browser; it must use the browser's own
	// context, since a timeout on it would stop the browser, so the
	// timeout is enforced from outside.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			t.Fatalf("starting Chromium %s: %v", exe, err)
		}
	case <-time.After(startTimeout):
		t.Fatalf("starting Chromium %s: no answer in %s", exe, startTimeout)
	}
	return &Browser{ctx: ctx}
}
