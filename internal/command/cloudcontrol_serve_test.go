package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/cloudcontrol/boltstore"
)

// TestServeRefusesDamagedStore starts the real "cairn cloudcontrol serve"
// process on damaged copies of a store: each exits 1 with one error that
// names the file and the way out, no goroutine dump, and the file as it
// was. (A truncated store was a SIGBUS, a garbage page "panic: assertion
// failed" or "invalid freelist page", each with a goroutine dump.)
func TestServeRefusesDamagedStore(t *testing.T) {
	good := storeFixture(t)
	cases := map[string]func([]byte) []byte{
		"cut short": func(b []byte) []byte { return b[:len(b)/2] },
		"garbage pages": func(b []byte) []byte {
			rng := rand.New(rand.NewPCG(1, 2))
			for i := 2 * 4096; i < len(b); i++ {
				b[i] = byte(rng.Uint32())
			}
			return b
		},
		"not a store": func([]byte) []byte { return []byte("{\"version\": 4}\n") },
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "cloudcontrol.db")
			raw := damage(bytes.Clone(good))
			if err := os.WriteFile(path, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "cairn", "-no-color", "cloudcontrol", "serve", "-addr", "127.0.0.1:0", "-data", dir, "-log", "off")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("serve: %v, want exit code 1\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
			}
			got := stderr.String()
			flat := strings.Join(strings.Fields(got), " ")
			for _, want := range []string{"Error: Cannot start the Cloud Control endpoint", path + " is damaged", "mv " + path} {
				if !strings.Contains(flat, want) {
					t.Errorf("stderr lacks %q:\n%s", want, got)
				}
			}
			for _, bad := range []string{"goroutine", "panic", "fatal error", "SIGBUS"} {
				if strings.Contains(got, bad) {
					t.Errorf("stderr holds %q:\n%s", bad, got)
				}
			}
			if n := strings.Count(got, "Error:"); n != 1 {
				t.Errorf("%d errors, want one:\n%s", n, got)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, raw) {
				t.Error("the damaged store was changed")
			}
		})
	}
}

// TestServeEmptyStore: a zero-length store file starts an endpoint with
// nothing in it, and the process says so.
func TestServeEmptyStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cloudcontrol.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	urlFile := filepath.Join(dir, "url")
	cmd := exec.Command("cairn", "-no-color", "cloudcontrol", "serve", "-addr", "127.0.0.1:0", "-data", dir, "-log", "off", "-url-file", urlFile)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(urlFile); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("endpoint did not start\nstdout:\n%s\nstderr:\n%s", &stdout, &stderr)
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v\nstderr:\n%s", err, &stderr)
	}
	flat := strings.Join(strings.Fields(stdout.String()), " ")
	if !strings.Contains(flat, "Warning: Empty Cloud Control store") || !strings.Contains(flat, path+" was empty (0 bytes)") {
		t.Errorf("stdout does not say the store was empty:\n%s", &stdout)
	}
}

// storeFixture returns the bytes of a real endpoint store holding a few
// hundred resources and requests.
func storeFixture(t *testing.T) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cloudcontrol.db")
	db, err := boltstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		model := fmt.Sprintf(`{"LogGroupName":"group-%03d","Pad":%q}`, i, strings.Repeat("x", i))
		if err := db.Insert("AWS::Logs::LogGroup", fmt.Sprintf("group-%03d", i), []byte(model)); err != nil {
			t.Fatal(err)
		}
		if err := db.PutRequest(fmt.Sprintf("token-%03d", i), []byte(model)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
