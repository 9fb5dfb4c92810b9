package statemgr

import (
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/zclconf/go-cty/cty"
)

// faultFS is the real file system with one injected fault: the failAt-th
// write, sync, rename or file creation (counting from 1) fails with err,
// and so does every later one when sticky is set (a disk that stays
// full). failAt 0 injects nothing and only counts.
type faultFS struct {
	failAt int
	sticky bool
	err    error
	// space, when set, is how many bytes may be written in all: a write
	// beyond it fails with ENOSPC, as on a nearly full disk.
	space int64

	mu      sync.Mutex
	ops     int
	written int64
	failed  string // the operation that failed first
}

var _ fileSystem = (*faultFS)(nil)

func (f *faultFS) fault(op, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ops++
	if f.failAt == 0 || f.ops < f.failAt || (f.ops > f.failAt && !f.sticky) {
		return nil
	}
	if f.failed == "" {
		f.failed = fmt.Sprintf("%s %s (op %d)", op, name, f.ops)
	}
	return &fs.PathError{Op: op, Path: name, Err: f.err}
}

// use accounts for a write of n bytes against the space left.
func (f *faultFS) use(name string, n int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.space > 0 && f.written+int64(n) > f.space {
		return &fs.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
	}
	f.written += int64(n)
	return nil
}

func (f *faultFS) OpenFile(name string, flag int, perm fs.FileMode) (file, error) {
	if err := f.fault("open", name); err != nil {
		return nil, err
	}
	of, err := osFS{}.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &faultFile{file: of, fs: f}, nil
}

func (f *faultFS) CreateTemp(dir, pattern string) (file, error) {
	if err := f.fault("create", dir); err != nil {
		return nil, err
	}
	of, err := osFS{}.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return &faultFile{file: of, fs: f}, nil
}

func (f *faultFS) Rename(oldpath, newpath string) error {
	if err := f.fault("rename", newpath); err != nil {
		return err
	}
	return osFS{}.Rename(oldpath, newpath)
}

type faultFile struct {
	file
	fs *faultFS
}

func (f *faultFile) Write(b []byte) (int, error) {
	if err := f.fs.fault("write", f.Name()); err != nil {
		return 0, err
	}
	if err := f.fs.use(f.Name(), len(b)); err != nil {
		return 0, err
	}
	return f.file.Write(b)
}

func (f *faultFile) WriteAt(b []byte, off int64) (int, error) {
	if err := f.fs.fault("write", f.Name()); err != nil {
		return 0, err
	}
	if err := f.fs.use(f.Name(), len(b)); err != nil {
		return 0, err
	}
	return f.file.WriteAt(b, off)
}

func (f *faultFile) Sync() error {
	if err := f.fs.fault("sync", f.Name()); err != nil {
		return err
	}
	return syncData(f.file)
}

var testOutput = cty.StringVal("out")

// faultRun is what one apply under a fault did.
type faultRun struct {
	acked    map[int]bool // records whose SetObject returned nil
	reported bool         // some call returned an error
	ops      int
}

// faultObjects is how many objects applyUnderFaults records after the
// two of the base state; every fault point multiplies the test's time.
const faultObjects = 8

// applyUnderFaults runs BeginApply, records objects 2..9 (the second
// half asynchronously) and an output, and Closes, through fsys.
func applyUnderFaults(t *testing.T, path string, fsys *faultFS) faultRun {
	t.Helper()
	run := faultRun{acked: map[int]bool{}}
	m := NewFilesystem(path)
	base, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	m.fsys = fsys
	rec, err := m.BeginApply(base)
	if err != nil {
		run.reported = true
		return run
	}
	for i := 2; i < 2+faultObjects; i++ {
		addr := instanceAddr(i).Object(addrs.NotDeposed)
		if i >= 2+faultObjects/2 {
			wait, err := rec.SetObjectAsync(addr, testObject(i), testProvider)
			if err == nil {
				err = wait()
			}
			run.acked[i] = err == nil
			run.reported = run.reported || err != nil
			continue
		}
		err := rec.SetObject(addr, testObject(i), testProvider)
		run.acked[i] = err == nil
		run.reported = run.reported || err != nil
	}
	if err := rec.SetOutput("o", &states.OutputValue{Value: testOutput}); err != nil {
		run.reported = true
	}
	_, err = rec.Close()
	var nd *NotDurableError
	switch {
	case errors.As(err, &nd):
		// Nothing on disk has every change: the caller gets them all
		// from State, to save elsewhere.
		run.reported = true
		if diff := cmp.Diff(stateOf(2+faultObjects), rec.State(), cmpOpts, cmpopts.IgnoreMapEntries(func(string, *states.OutputValue) bool { return true })); diff != "" {
			t.Errorf("%s: Close failed and State lacks changes (-want +got):\n%s", fsys.failed, diff)
		}
	case err != nil:
		run.reported = true
	}
	run.ops = fsys.ops
	return run
}

// TestWriterFaults fails every write, sync, rename and file creation the
// state writer makes during an apply, one at a time (and, for ENOSPC, from
// that one on, as a disk that stays full), and checks that no record that
// was acknowledged is lost and that a fault which loses anything is
// reported.
func TestWriterFaults(t *testing.T) {
	total := applyUnderFaults(t, seededState(t), &faultFS{}).ops
	t.Logf("%d file operations to fail", total)
	if total < 10 {
		t.Fatalf("a clean apply made only %d file operations", total)
	}
	tests := map[string]struct {
		err    error
		sticky bool
	}{
		"ENOSPC once":  {err: syscall.ENOSPC},
		"EIO once":     {err: syscall.EIO},
		"disk full":    {err: syscall.ENOSPC, sticky: true},
		"EIO from now": {err: syscall.EIO, sticky: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for n := 1; n <= total; n++ {
				path := seededState(t)
				fsys := &faultFS{failAt: n, sticky: tc.sticky, err: tc.err}
				run := applyUnderFaults(t, path, fsys)
				if fsys.failed == "" {
					t.Fatalf("fault %d was never hit", n)
				}
				checkFaultRun(t, path, fsys.failed, run)
			}
		})
	}
}

// checkFaultRun checks, with the fault gone, what the next command sees.
func checkFaultRun(t *testing.T, path, fault string, run faultRun) {
	t.Helper()
	m := NewFilesystem(path)
	if _, err := m.Recover(false); err != nil {
		t.Fatalf("%s: Recover: %v", fault, err)
	}
	got, err := m.Read()
	if err != nil {
		t.Fatalf("%s: Read: %v", fault, err)
	}
	for i := range 2 + faultObjects {
		is := got.State.ResourceInstance(instanceAddr(i))
		present := is != nil && is.Current != nil
		if present {
			if diff := cmp.Diff(testObject(i), is.Current, cmpOpts); diff != "" {
				t.Errorf("%s: instance %d (-want +got):\n%s", fault, i, diff)
			}
		}
		switch {
		case i < 2 && !present:
			t.Errorf("%s: base instance %d lost", fault, i)
		case run.acked[i] && !present:
			t.Errorf("%s: acknowledged instance %d lost", fault, i)
		case !run.reported && !present:
			t.Errorf("%s: instance %d lost and no error reported", fault, i)
		}
	}
}

// seededState returns the path of a new state holding instances 0 and 1.
func seededState(t *testing.T) string {
	m := newManager(t)
	if _, err := m.Persist(stateOf(2)); err != nil {
		t.Fatal(err)
	}
	return m.Path()
}

// TestNearlyFullDisk has room for every record and the final snapshot,
// but not for the journal's zero-filled preallocation (1 MiB): the
// preallocation must give way, and every record be written.
func TestNearlyFullDisk(t *testing.T) {
	path := seededState(t)
	fsys := &faultFS{space: 256 << 10}
	run := applyUnderFaults(t, path, fsys)
	if run.reported {
		t.Errorf("an apply that fits on the disk reported an error")
	}
	for i := 2; i < 2+faultObjects; i++ {
		if !run.acked[i] {
			t.Errorf("instance %d was not recorded", i)
		}
	}
	checkFaultRun(t, path, "256 KiB free", run)
}
