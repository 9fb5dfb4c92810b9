package testkube

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartFailures starts clusters whose programs are shell scripts that
// fail the way etcd and kube-apiserver do, to check what the error says
// and when a start is tried again.
func TestStartFailures(t *testing.T) {
	cases := map[string]struct {
		reason       string
		apiserver    string // the fake kube-apiserver's script body; it appends to $0.runs first
		wantErr      error
		wantInError  []string
		wantAttempts int
		wantKeptLogs int
	}{
		"APIServerExits": {
			reason:       "a process that ends while starting fails the start with its last log lines",
			apiserver:    `echo 'Error: unknown flag: --bogus' >&2; exit 1`,
			wantInError:  []string{"kube-apiserver exited during start-up", "unknown flag: --bogus", "last lines of etcd"},
			wantAttempts: 1,
			wantKeptLogs: 1,
		},
		"PortTaken": {
			reason:       "a port taken between picking and binding is retried with new ports; retried attempts leave nothing behind",
			apiserver:    `echo 'failed to listen on 127.0.0.1:1234: bind: address already in use' >&2; exit 1`,
			wantErr:      errPortTaken,
			wantInError:  []string{"address already in use"},
			wantAttempts: startAttempts,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			// The clusters' temporary roots go here, where the test can
			// count the ones kept and the testing package removes them.
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			bins := Binaries{
				APIServer: script(t, dir, "kube-apiserver", `echo run >>"$0.runs"; `+tc.apiserver),
				Etcd:      script(t, dir, "etcd", `echo 'etcd serving' >&2; exec sleep 600`),
			}
			c, err := start(bins)
			if err == nil {
				_ = c.stop(false)
				t.Fatalf("%s\nstart(): no error", tc.reason)
			}
			if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Errorf("%s\nstart(): error %v, want %v", tc.reason, err, tc.wantErr)
			}
			for _, want := range tc.wantInError {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s\nstart(): error does not mention %q:\n%v", tc.reason, want, err)
				}
			}
			runs, _ := os.ReadFile(bins.APIServer + ".runs")
			if got := strings.Count(string(runs), "run"); got != tc.wantAttempts {
				t.Errorf("%s\nstart(): kube-apiserver run %d times, want %d", tc.reason, got, tc.wantAttempts)
			}
			kept, _ := filepath.Glob(filepath.Join(tmp, "testkube-*", "kube-apiserver.log"))
			if got := len(kept); got != tc.wantKeptLogs {
				t.Errorf("%s\nstart(): %d kube-apiserver logs kept, want %d", tc.reason, got, tc.wantKeptLogs)
			}
		})
	}
}

// script writes an executable shell script named name in dir.
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}
