package command

import (
	"errors"
	"os/exec"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/internal/testkube"
)

// cmdKube starts a real kube-apiserver and etcd for the script
// (internal/testkube) and points KUBECONFIG at it; the cluster stops when
// the script ends.
//
//	kube start
func cmdKube(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || args[0] != "start" {
		ts.Fatalf("usage: kube start")
	}
	c, stop, err := testkube.StartMain()
	ts.Check(err)
	ts.Defer(func() { _ = stop() })
	ts.Setenv("KUBECONFIG", c.Kubeconfig())
}

// kubeInstalled is the [kube] condition: kube-apiserver and etcd are
// there to start.
func kubeInstalled() bool {
	_, err := testkube.FindBinaries()
	return err == nil
}

// cmdEventually runs a program every 200 ms until it succeeds (with !,
// until it fails), for up to the duration given: the controller works
// asynchronously to the script. The last run's output is the command's.
//
//	eventually 60s kubectl get -n team loggroup app -o jsonpath={.status.atProvider.arn}
func cmdEventually(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: eventually DURATION PROGRAM [ARGS...]")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	var last error
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		last = ts.Exec(args[1], args[2:]...)
		var exit *exec.ExitError
		if last != nil && !errors.As(last, &exit) && !strings.Contains(last.Error(), "exit status") {
			ts.Fatalf("%s: %v", args[1], last)
		}
		if (last == nil) != neg {
			return
		}
	}
	ts.Fatalf("eventually: %s did not %s within %s (last: %v)", strings.Join(args[1:], " "), map[bool]string{false: "succeed", true: "fail"}[neg], d, last)
}
