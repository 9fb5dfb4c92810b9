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
func BenchmarkRecorder10000(b *testing.B) { benchmarkRecorder(b) }

// BenchmarkRecorder10000Encrypted is BenchmarkRecorder10000 with state
// encryption: every journal record sealed, the final snapshot encrypted.
// The key is derived once, before the timer, as a run derives it once.
func BenchmarkRecorder10000Encrypted(b *testing.B) {
	enc := testEncryption(b, "benchmark-passphrase", "")
	if _, err := enc.Encrypt([]byte("{}")); err != nil {
		b.Fatal(err)
	}
	benchmarkRecorder(b, WithEncryption(enc))
}

func benchmarkRecorder(b *testing.B, opts ...Option) {
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
		m := NewFilesystem(path, opts...)
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
func BenchmarkPersist10000(b *testing.B) { benchmarkPersist(b) }

// BenchmarkPersist10000Encrypted is BenchmarkPersist10000 with state
// encryption: the snapshot encrypted, and the previous one decrypted and
// re-encrypted as the backup.
func BenchmarkPersist10000Encrypted(b *testing.B) {
	benchmarkPersist(b, WithEncryption(testEncryption(b, "benchmark-passphrase", "")))
}

func benchmarkPersist(b *testing.B, opts ...Option) {
	m := NewFilesystem(b.TempDir()+"/terraform.tfstate", opts...)
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

// BenchmarkSealRecord is the CPU cost encryption adds to one journal
// record: AES-GCM, the envelope, and compacting it onto one line.
func BenchmarkSealRecord(b *testing.B) {
	rec := statefile.ObjectRecord{Addr: instanceAddr(1), Provider: testProvider, Object: testObject(1)}
	body, err := encodeObjectBody(&rec)
	if err != nil {
		b.Fatal(err)
	}
	m := NewFilesystem(b.TempDir()+"/terraform.tfstate", WithEncryption(testEncryption(b, "benchmark-passphrase", "")))
	if _, err := m.sealRecord(body); err != nil { // derive the key
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := m.sealRecord(body); err != nil {
			b.Fatal(err)
		}
	}
}
