package applyjournal

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

func TestClassify(t *testing.T) {
	snap := &statefile.File{Lineage: "L", Serial: 5, State: states.NewState()}
	for _, tc := range []struct {
		name    string
		snap    *statefile.File
		h       Header
		want    Status
		wantErr string
	}{
		{"first apply", nil, Header{Lineage: "L"}, Pending, ""},
		{"base deleted", nil, Header{Lineage: "L", BaseSerial: 5, BaseExists: true}, 0, "there is no state"},
		{"pending", snap, Header{Lineage: "L", BaseSerial: 5, BaseExists: true}, Pending, ""},
		{"folded", snap, Header{Lineage: "L", BaseSerial: 4, BaseExists: true}, Stale, ""},
		{"first apply, then a state", snap, Header{Lineage: "L"}, Stale, ""},
		{"other lineage", snap, Header{Lineage: "M", BaseSerial: 5, BaseExists: true}, 0, "lineage"},
		{"state older", snap, Header{Lineage: "L", BaseSerial: 6, BaseExists: true}, 0, "older serial"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Classify(tc.snap, tc.h)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Classify = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestRecordsRoundTripAndReplay: records decode to what was encoded, and
// the view of a pending journal takes the recovery serial only when the
// reader holds the lock.
func TestRecordsRoundTripAndReplay(t *testing.T) {
	obj := &states.ObjectSrc{AttrsJSON: []byte(`{"id":"x"}`), Status: states.ObjectReady}
	var j Journal
	j.Header = Header{Lineage: "L", BaseSerial: 3, BaseExists: true}
	for _, r := range []Record{ObjectRecord(backendtest.ObjectAddr(1), obj, backendtest.Provider), OutputRecord("o", &states.OutputValue{Value: cty.StringVal("v")})} {
		stored, err := r.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(stored, nil)
		if err != nil {
			t.Fatal(err)
		}
		j.Records = append(j.Records, got)
	}
	base := &statefile.File{Lineage: "L", Serial: 3, State: states.NewState()}
	unlocked, err := View(base, &j, false)
	if err != nil || unlocked.Serial != 3 || unlocked.State.ResourceInstance(backendtest.ObjectAddr(1).ResourceInstance) == nil {
		t.Fatalf("unlocked view = %+v, %v", unlocked, err)
	}
	if locked, _ := View(base, &j, true); locked.Serial != 4 {
		t.Fatalf("locked view serial %d, want 4", locked.Serial)
	}
	if base.State.ResourceInstance(backendtest.ObjectAddr(1).ResourceInstance) != nil {
		t.Fatal("replay changed the base snapshot")
	}
	for _, bad := range []string{`{}`, `{"object":null,"output":null}`, `not json`} {
		if _, err := Decode([]byte(bad), nil); err == nil {
			t.Errorf("Decode(%s) succeeded", bad)
		}
	}
}

// TestGroupWriterOrder: records are committed in order, in groups that
// start where the previous one ended, never two commits at once; Wait
// returns once the record is committed.
func TestGroupWriterOrder(t *testing.T) {
	var mu sync.Mutex
	var committed []string
	busy := false
	w := NewGroupWriter(func(first uint64, records []string) error {
		mu.Lock()
		if busy || first != uint64(len(committed))+1 {
			mu.Unlock()
			return fmt.Errorf("group at %d while %d committed (busy %v)", first, len(committed), busy)
		}
		busy = true
		mu.Unlock()
		mu.Lock()
		committed = append(committed, records...)
		busy = false
		mu.Unlock()
		return nil
	})
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			seq := w.Append(fmt.Sprint(i))
			if err := w.Wait(seq); err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if uint64(len(committed)) < seq {
				t.Errorf("Wait(%d) returned with %d committed", seq, len(committed))
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil || len(committed) != 200 {
		t.Fatalf("Close = %v with %d committed", err, len(committed))
	}
}

// TestGroupWriterFailure: a failed commit fails every wait not yet
// satisfied, calls stop once, and Close reports it.
func TestGroupWriterFailure(t *testing.T) {
	boom := errors.New("bucket gone")
	w := NewGroupWriter(func(uint64, []string) error { return boom })
	stops := make(chan struct{}, 2)
	w.OnFailure(func() { stops <- struct{}{} })
	if err := w.Wait(w.Append("a")); !errors.Is(err, boom) {
		t.Fatalf("Wait = %v", err)
	}
	<-stops
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close = %v", err)
	}
	select {
	case <-stops:
		t.Fatal("stop called twice")
	default:
	}
}

// TestDamageErrorMessage: the message names the stored part a backend
// keeps (pg's rows) or, by default, records and stored parts (s3).
func TestDamageErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		part, want string
	}{
		{"", "the apply journal J is damaged at record 2: bad; the 1 records before it can be recovered, but 3 stored parts cannot be used, and they may record objects that exist"},
		{"row", "the apply journal J is damaged at row 2: bad; the 1 records before it can be recovered, but 3 rows cannot be used, and they may record objects that exist"},
	} {
		e := &DamageError{Where: "J", Seq: 2, Reason: "bad", Kept: 1, Unusable: 3, Part: tc.part}
		if got := e.Error(); got != tc.want {
			t.Errorf("Part %q:\n got %s\nwant %s", tc.part, got, tc.want)
		}
	}
}
