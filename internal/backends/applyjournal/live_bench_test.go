package applyjournal

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
)

// BenchmarkLiveSetObject is the part of a remote backend's SetObject
// that Live owns (encode, apply to the live state, queue, wait) over a
// commit that stores nothing: 1,000 objects a recorder, each from its
// own goroutine. commits/object is how many groups the writer made per
// object.
func BenchmarkLiveSetObject(b *testing.B) {
	const perApply = 1000
	commits := 0
	b.ReportAllocs()
	for b.Loop() {
		l := NewLive(StartHeader("f", "L", nil), nil, nil, NewGroupWriter(func(uint64, []string) error {
			commits++
			return nil
		}))
		backendtest.RecordAll(b, perApply, func(i int) error {
			return l.SetObject(backendtest.ObjectAddr(i), backendtest.Object(i), backendtest.Provider)
		})
		if _, jerr, err := l.Finish(); jerr != nil || err != nil {
			b.Fatal(jerr, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*perApply), "ns/object")
	b.ReportMetric(float64(commits)/float64(b.N*perApply), "commits/object")
}
