package applyjournal

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/backends/backendtest"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// TestLiveRecordsInJournalOrder: concurrent records change the live state
// and reach the journal in the order they changed it, so that replaying
// the committed records on the base gives the live state; the snapshot
// is one serial above the base.
func TestLiveRecordsInJournalOrder(t *testing.T) {
	base := &statefile.File{Lineage: "L", Serial: 7, State: states.NewState()}
	var mu sync.Mutex
	var committed []string
	w := NewGroupWriter(func(_ uint64, records []string) error {
		mu.Lock()
		defer mu.Unlock()
		committed = append(committed, records...)
		return nil
	})
	h := StartHeader("f", "unused", base)
	if h != (Header{Format: "f", Lineage: "L", BaseSerial: 7, BaseExists: true}) {
		t.Fatalf("StartHeader = %+v", h)
	}
	l := NewLive(h, base, nil, w)
	obj := &states.ObjectSrc{AttrsJSON: []byte(`{"id":"x"}`), Status: states.ObjectReady}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() {
			if err := l.SetObject(backendtest.ObjectAddr(i), obj, backendtest.Provider); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := l.SetOutput("o", &states.OutputValue{Value: cty.StringVal("v")}); err != nil {
		t.Fatal(err)
	}
	changed, jerr, err := l.Finish()
	if !changed || jerr != nil || err != nil {
		t.Fatalf("Finish = %v, %v, %v", changed, jerr, err)
	}
	j := Journal{Header: h}
	for _, c := range committed {
		r, err := Decode([]byte(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		j.Records = append(j.Records, r)
	}
	snap := l.Snapshot()
	if got := j.Recovered(base); snap.Serial != 8 || snap.Lineage != "L" || got.Serial != 8 || !statemgr.SameState(got.State, snap.State) {
		t.Fatalf("snapshot serial %d lineage %s; recovered serial %d, same %v", snap.Serial, snap.Lineage, got.Serial, statemgr.SameState(got.State, snap.State))
	}
	if base.State.ResourceInstance(backendtest.ObjectAddr(1).ResourceInstance) != nil {
		t.Fatal("the live state shares the base's")
	}
}

// TestLiveClosed: after Finish, records are refused with
// statemgr.ErrRecorderClosed and a second Finish says so; a first apply
// (no base) that records nothing reports no change.
func TestLiveClosed(t *testing.T) {
	h := StartHeader("f", "new", nil)
	if h.Lineage != "new" || h.BaseExists {
		t.Fatalf("StartHeader(nil) = %+v", h)
	}
	l := NewLive(h, nil, nil, NewGroupWriter(func(uint64, []string) error { return nil }))
	if changed, jerr, err := l.Finish(); changed || jerr != nil || err != nil {
		t.Fatalf("Finish = %v, %v, %v", changed, jerr, err)
	}
	if _, _, err := l.Finish(); !errors.Is(err, statemgr.ErrRecorderClosed) {
		t.Fatalf("second Finish = %v", err)
	}
	if err := l.SetObject(backendtest.ObjectAddr(1), nil, backendtest.Provider); !errors.Is(err, statemgr.ErrRecorderClosed) {
		t.Fatalf("SetObject after Finish = %v", err)
	}
	if err := l.SetOutput("o", nil); !errors.Is(err, statemgr.ErrRecorderClosed) {
		t.Fatalf("SetOutput after Finish = %v", err)
	}
}

// TestLiveJournalFailure: a journal that cannot be written fails the
// record's wait with the address named, calls the failure callback, and
// Finish reports it as the journal's error.
func TestLiveJournalFailure(t *testing.T) {
	boom := errors.New("bucket gone")
	l := NewLive(StartHeader("f", "L", nil), nil, nil, NewGroupWriter(func(uint64, []string) error { return boom }))
	stopped := make(chan struct{}, 1)
	l.OnFailure(func() { stopped <- struct{}{} })
	err := l.SetObject(backendtest.ObjectAddr(3), &states.ObjectSrc{AttrsJSON: []byte(`{}`)}, backendtest.Provider)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "recording terraform_data.r[3]") {
		t.Fatalf("SetObject = %v", err)
	}
	<-stopped
	if err := l.SetOutput("o", nil); !errors.Is(err, boom) || !strings.Contains(err.Error(), `recording output "o"`) {
		t.Fatalf("SetOutput = %v", err)
	}
	if changed, jerr, err := l.Finish(); !changed || !errors.Is(jerr, boom) || err != nil {
		t.Fatalf("Finish = %v, %v, %v", changed, jerr, err)
	}
}
