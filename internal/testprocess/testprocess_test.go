package testprocess

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

func TestVmHWM(t *testing.T) {
	cases := map[string]struct {
		status string
		want   uint64
	}{
		"kB to bytes":  {status: "Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t 1024 kB\n", want: 2 << 20},
		"no VmHWM":     {status: "Name:\tx\nVmRSS:\t 1024 kB\n", want: 0},
		"not a number": {status: "VmHWM:\t lots kB\n", want: 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := vmHWM(tc.status); got != tc.want {
				t.Errorf("vmHWM = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("VmHWM is Linux's")
	}
	if PeakRSS(0) == 0 {
		t.Error("this process has a peak RSS")
	}
	if PeakRSS(os.Getpid()) == 0 {
		t.Error("this process, by pid, has a peak RSS")
	}
	if got := PeakRSS(-1); got != 0 {
		t.Errorf("no process: PeakRSS = %d, want 0", got)
	}
}

// TestBuildOnce: the first call builds a binary that runs; later calls
// answer the same path without building again.
func TestBuildOnce(t *testing.T) {
	build := BuildOnce("./testdata/hello", "hello")
	bin := build(t)
	out, err := exec.Command(bin).Output()
	if err != nil || string(out) != "hello\n" {
		t.Fatalf("the built binary answered %q, %v", out, err)
	}
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	if again := build(t); again != bin {
		t.Errorf("the second call answered %s, want %s", again, bin)
	}
	if _, err := os.Stat(bin); err == nil {
		t.Error("the second call built again")
	}
	_ = os.RemoveAll(filepath.Dir(bin))
}

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	Build(t, dir, "./testdata/hello")
	if out, err := exec.Command(filepath.Join(dir, "hello")).Output(); err != nil || string(out) != "hello\n" {
		t.Fatalf("the built binary answered %q, %v", out, err)
	}
	if err := build(dir, "./testdata/nosuch"); err == nil {
		t.Error("building a package that does not exist must fail")
	}
}
