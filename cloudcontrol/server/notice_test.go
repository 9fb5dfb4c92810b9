package server

import (
	"testing"
)

// TestNoticeDelays records one delay per finished request, at the first
// status poll that reports its end and never again.
func TestNoticeDelays(t *testing.T) {
	h := newHarness(t, nil)
	if got := h.current().NoticeDelays(); len(got) != 0 {
		t.Fatalf("before any request: %v", got)
	}
	ev := h.create(bucketType, `{"BucketName":"n1"}`)
	h.mustSucceed(ev)
	h.wait(ev.RequestToken) // a second poll of a finished request
	got := h.current().NoticeDelays()
	if len(got) != 1 || got[0] < 0 {
		t.Fatalf("notice delays = %v, want one non-negative delay", got)
	}
}
