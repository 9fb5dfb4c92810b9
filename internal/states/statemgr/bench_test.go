package statemgr

import (
	"os"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// BenchmarkRecorder10000 is one whole apply of 10,000 instances as the
// engine drives it: BeginApply, 10,000 SetObject calls from ten workers
// (each returning only when its record is durable), and Close writing the
// final snapshot. It reports the syncs the journal needed per apply.
func BenchmarkRecorder10000(b *testing.B) {
	const n, workers = 10000, 10
	objs := make([]*states.ObjectSrc, n)
	for i := range objs {
		objs[i] = testObject(i)
	}
	dir := b.TempDir()
	b.ReportAllocs()
	syncs := 0
	for b.Loop() {
		b.StopTimer()
		path := dir + "/terraform.tfstate"
		os.Remove(path)
		os.Remove(path + ".backup")
		m := NewFilesystem(path)
		b.StartTimer()

		rec, err := m.BeginApply(nil)
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < n; i += workers {
					if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), objs[i], testProvider); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		syncs += rec.journal.syncs
		if _, err := rec.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(syncs)/float64(b.N), "syncs/apply")
}

// BenchmarkPersist10000 writes a changed 10,000-instance snapshot: encode,
// temporary file, sync, backup link, rename, directory sync.
func BenchmarkPersist10000(b *testing.B) {
	m := NewFilesystem(b.TempDir() + "/terraform.tfstate")
	states := [2]*states.State{stateOf(10000), stateOf(10000)}
	states[1].SetResourceInstanceCurrent(instanceAddr(0), testObject(-1), testProvider)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := m.Persist(states[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkJournalAppend is the CPU cost of queueing one record: framing
// it with its sequence number and checksum, without the I/O.
func BenchmarkJournalAppend(b *testing.B) {
	rec := statefile.ObjectRecord{Addr: instanceAddr(1), Provider: testProvider, Object: testObject(1)}
	body, err := encodeObjectBody(&rec)
	if err != nil {
		b.Fatal(err)
	}
	w := newJournalWriter(nil, 0)
	b.ReportAllocs()
	for b.Loop() {
		w.append(body)
		if len(w.pending) > 1<<20 {
			w.pending = w.pending[:0]
		}
	}
}
