package providers

import (
	"fmt"
	"sort"
	"testing"
	"time"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// sortTail sorts the last n events: instances closed together close in map
// order.
func sortTail(events []string, n int) {
	if len(events) >= n {
		sort.Strings(events[len(events)-n:])
	}
}

func contains(events []string, event string) bool {
	for _, e := range events {
		if e == event {
			return true
		}
	}
	return false
}

// waitFor polls cond: StopProvider runs on a goroutine of its own once the
// context is cancelled.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met")
		}
		time.Sleep(time.Millisecond)
	}
}
