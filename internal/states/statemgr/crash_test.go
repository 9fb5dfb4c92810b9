package statemgr

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
)

// TestCrashLosesNoAcknowledgedRecord runs an apply in a child process
// (ten workers recording objects as fast as they can), SIGKILLs it at an
// arbitrary moment, and checks that Read recovers every object whose
// SetObject had returned: the child prints an object's number only after
// that.
func TestCrashLosesNoAcknowledgedRecord(t *testing.T) { crashAndRecover(t) }

// TestCrashLosesNoAcknowledgedRecordEncrypted is the same crash with state
// encryption: the child seals every journal record, no attribute value
// reaches the disk in the clear, and recovery decrypts them all.
func TestCrashLosesNoAcknowledgedRecordEncrypted(t *testing.T) {
	t.Setenv(childPassphraseEnv, "crash-test-passphrase")
	crashAndRecover(t, childOptions()...)
}

func crashAndRecover(t *testing.T, opts ...Option) {
	m := NewFilesystem(newManager(t).Path(), opts...)
	base, err := m.Persist(stateOf(3))
	if err != nil {
		t.Fatal(err)
	}
	cmd, out, _ := startChild(t, "apply", m.Path())
	acked := map[int]bool{}
	for out.Scan() && len(acked) < 1500 {
		n, ok := strings.CutPrefix(out.Text(), "acked ")
		i, err := strconv.Atoi(n)
		if !ok || err != nil {
			t.Fatalf("unexpected line from the child: %q", out.Text())
		}
		acked[i] = true
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// Lines the child printed before dying are acknowledged too.
	for out.Scan() {
		if n, ok := strings.CutPrefix(out.Text(), "acked "); ok {
			if i, err := strconv.Atoi(n); err == nil {
				acked[i] = true
			}
		}
	}
	if len(acked) < 1500 {
		t.Fatalf("the child acknowledged only %d records before exiting: %v", len(acked), out.Err())
	}
	if _, err := os.Stat(m.journalPath); err != nil {
		t.Fatalf("no journal after the crash: %v", err)
	}

	if len(opts) > 0 {
		journal, _ := os.ReadFile(m.journalPath)
		if strings.Contains(string(journal), `"id-1`) {
			t.Errorf("the encrypted apply's journal holds attribute values in the clear")
		}
	}
	if _, err := NewFilesystem(m.Path(), opts...).Recover(false); err != nil {
		t.Fatalf("Recover after the crash: %v", err)
	}
	got, err := NewFilesystem(m.Path(), opts...).Read()
	if err != nil {
		t.Fatalf("Read after the crash: %v", err)
	}
	if got.Lineage != base.Lineage || got.Serial != base.Serial+1 {
		t.Errorf("recovered snapshot: serial %d lineage %s, want %d %s", got.Serial, got.Lineage, base.Serial+1, base.Lineage)
	}
	var missing []string
	for i := range acked {
		is := got.State.ResourceInstance(instanceAddr(i))
		if is == nil || is.Current == nil {
			missing = append(missing, instanceAddr(i).String())
			continue
		}
		if diff := cmp.Diff(testObject(i), is.Current, cmpOpts); diff != "" {
			t.Errorf("%s (-want +got):\n%s", instanceAddr(i), diff)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d acknowledged objects lost, e.g. %v", len(missing), missing[:min(5, len(missing))])
	}
	// The base's objects are still there (the child rewrote 0..2 with the
	// same content) and nothing else appeared.
	count := 0
	got.State.AllInstances(func(addrs.AbsResourceInstance, *states.Resource, *states.ResourceInstance) { count++ })
	if count < len(acked) {
		t.Errorf("recovered %d instances, fewer than the %d acknowledged", count, len(acked))
	}
	t.Logf("child acknowledged %d objects; %d recovered (the rest were written but not yet acknowledged)", len(acked), count)

	// Recovery finished the apply's files: journal gone, lock free, and
	// the state file is the recovered snapshot.
	if _, err := os.Stat(m.journalPath); !os.IsNotExist(err) {
		t.Errorf("journal still exists after recovery")
	}
	disk, err := NewFilesystem(m.Path(), opts...).Read()
	if err != nil {
		t.Fatal(err)
	}
	if disk.Serial != got.Serial {
		t.Errorf("state file has serial %d, want the recovered %d", disk.Serial, got.Serial)
	}
}
