// Package testbrowser drives a real headless Chromium for tests, through
// the DevTools protocol (github.com/chromedp/chromedp), so that pages Cairn
// writes (the HTML plan explorer, Mermaid graphs) are checked by the
// browser people open them in rather than by string matching.
//
// New starts one browser per call (headless, no sandbox, no GPU, with the
// background networking that Chromium does on its own turned off, and a
// fresh profile under the test's temporary directory) and stops it when
// the test ends. Open loads a file:// page in a new tab and holds it to
// what a self-contained page promises: every request it makes to anything
// but its own file, data:, blob: or about: URLs is failed in the browser
// and reported as a test error naming the URL, and so are console errors
// and uncaught exceptions. Screenshot keeps full-page PNGs as test
// artifacts in $CAIRN_TEST_ARTIFACTS when that is set.
//
// The browser comes from scripts/install-chromium.sh (make test runs it)
// at $CAIRN_CHROMIUM or /usr/bin/chromium; when neither exists, New skips
// the test and names the script.
//
// Boundary: test support, imported by tests only; it knows nothing of
// Cairn, so the binaries never link chromedp.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
//	uses environment # where make test put Chromium (CAIRN_CHROMIUM) and where artifacts go (CAIRN_TEST_ARTIFACTS)
package testbrowser
