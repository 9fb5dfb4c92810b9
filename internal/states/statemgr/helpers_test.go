package statemgr

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// Subprocess tests re-run this test binary as the other process, with
// childModeEnv naming what it should do and childPathEnv the state path.
const (
	childModeEnv = "CAIRN_STATEMGR_TEST_CHILD"
	childPathEnv = "CAIRN_STATEMGR_TEST_PATH"
	// childPassphraseEnv, when set, makes the child (and childOptions)
	// encrypt state with this passphrase.
	childPassphraseEnv = "CAIRN_STATEMGR_TEST_PASSPHRASE"
)

func TestMain(m *testing.M) {
	switch mode := os.Getenv(childModeEnv); mode {
	case "":
		os.Exit(m.Run())
	case "hold-lock":
		os.Exit(childHoldLock(os.Getenv(childPathEnv)))
	case "apply":
		os.Exit(childApply(os.Getenv(childPathEnv)))
	case "terraform-lock":
		os.Exit(childTerraformLock(os.Getenv(childPathEnv)))
	default:
		fmt.Fprintf(os.Stderr, "unknown child mode %q\n", mode)
		os.Exit(2)
	}
}

// childInfo is the lock info the child holds the lock with, so the parent
// can check that errors name it.
var childInfo = LockInfo{ID: "child-lock-id", Operation: "OperationTypeApply", Info: "held by a test child", Version: "9.9.9"}

// childHoldLock takes the lock, says so on stdout, and keeps it until
// stdin closes.
func childHoldLock(path string) int {
	m := NewFilesystem(path)
	unlock, err := m.Lock(context.Background(), childInfo, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n') // returns at EOF
	if err := unlock(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// childApply records objects from ten workers forever, printing "acked N"
// after SetObject for instance N returned, until it is killed.
func childApply(path string) int {
	m := NewFilesystem(path, childOptions()...)
	if _, err := m.Lock(context.Background(), LockInfo{Operation: "OperationTypeApply"}, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	base, err := m.Read()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	rec, err := m.BeginApply(base)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var out sync.Mutex
	var wg sync.WaitGroup
	for w := range 10 {
		wg.Go(func() {
			for i := w; ; i += 10 {
				if err := rec.SetObject(instanceAddr(i).Object(addrs.NotDeposed), testObject(i), testProvider); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				out.Lock()
				fmt.Printf("acked %d\n", i)
				out.Unlock()
			}
		})
	}
	wg.Wait()
	return 0
}

// startChild starts this test binary in the given child mode.
func startChild(t *testing.T, mode, path string) (*exec.Cmd, *bufio.Scanner, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childModeEnv+"="+mode, childPathEnv+"="+path)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}
	t.Cleanup(stop)
	return cmd, bufio.NewScanner(stdout), func() { stdin.Close() }
}

var testProvider = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

func instanceAddr(i int) addrs.AbsResourceInstance {
	return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i%10)}.
		Absolute(addrs.RootModuleInstance).Instance(addrs.IntKey(i / 10))
}

func testObject(i int) *states.ObjectSrc {
	return &states.ObjectSrc{
		AttrsJSON: fmt.Appendf(nil, `{"id":"id-%d","input":{"value":"v%d","type":"string"},"output":{"value":"v%d","type":"string"},"triggers_replace":null}`, i, i, i),
		Status:    states.ObjectReady,
	}
}

// stateOf returns a state holding instances 0..n-1.
func stateOf(n int) *states.State {
	s := states.NewState()
	for i := range n {
		s.SetResourceInstanceCurrent(instanceAddr(i), testObject(i), testProvider)
	}
	return s
}

func newManager(t *testing.T) *Filesystem {
	t.Helper()
	return NewFilesystem(filepath.Join(t.TempDir(), "terraform.tfstate"))
}

var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
	cmp.Comparer(func(a, b cty.Path) bool { return a.Equals(b) }),
}
