//go:build unix

package command

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkPgApply applies n terraform_data from scratch, as a separate
// process, on backend "pg" and on the local backend with Cairn, and on
// pg with Terraform 1.5.7 ($CAIRN_TERRAFORM; skipped when unset), each on
// a new database or directory. ns/op is the apply's wall time;
// peak-RSS-MiB is the applying process's. Cairn commits every finished
// instance (journal rows on pg, the journal file locally); Terraform
// persists pg state every 20 s and at the end. Run with -benchtime=1x.
func BenchmarkPgApply(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		for _, tool := range []string{"cairn-pg", "cairn-pg-encrypted", "cairn-local", "terraform-pg"} {
			b.Run(fmt.Sprintf("%s/%d", tool, n), func(b *testing.B) {
				var rss int64
				for range b.N {
					b.StopTimer()
					cmd := benchApplyCmd(b, tool, n)
					b.StartTimer()
					out, err := cmd.CombinedOutput()
					b.StopTimer()
					if err != nil {
						b.Fatalf("%s apply: %v\n%s", tool, err, tail(out))
					}
					if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
						rss = max(rss, ru.Maxrss*1024)
					}
				}
				b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
			})
		}
	}
}

// benchApplyCmd prepares a working directory (and database) for tool and
// returns the apply command, not yet started.
func benchApplyCmd(b *testing.B, tool string, n int) *exec.Cmd {
	dir := b.TempDir()
	cfg := crashConfig
	env := append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	if tool != "cairn-local" {
		cfg = pgCrashConfig
		env = append(env, "PG_CONN_STR="+pgsrv.Database(b))
	}
	if tool == "cairn-pg-encrypted" {
		// OpenTofu's encryption through TF_ENCRYPTION: the state row and
		// every journal row sealed with AES-GCM.
		env = append(env, "TF_ENCRYPTION="+benchEncryption)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	prog, args := "cairn", []string{"apply", "-auto-approve", "-no-color", fmt.Sprintf("-var=n=%d", n)}
	if tool == "terraform-pg" {
		prog = os.Getenv("CAIRN_TERRAFORM")
		if prog == "" {
			b.Skip("CAIRN_TERRAFORM is not set")
		}
	}
	if tool != "cairn-local" {
		// A backend block needs init first, with either tool.
		init := exec.Command(prog, "init", "-no-color", "-input=false")
		init.Dir, init.Env = dir, env
		if out, err := init.CombinedOutput(); err != nil {
			b.Fatalf("%s init: %v\n%s", prog, err, tail(out))
		}
	}
	cmd := exec.Command(prog, args...)
	cmd.Dir, cmd.Env = dir, env
	return cmd
}

const benchEncryption = `
key_provider "pbkdf2" "k" {
  passphrase = "benchmark-passphrase-0123"
}
method "aes_gcm" "m" {
  keys = key_provider.pbkdf2.k
}
state {
  method = method.aes_gcm.m
}
`

func tail(out []byte) []byte {
	if len(out) > 2000 {
		out = out[len(out)-2000:]
	}
	return bytes.TrimSpace(out)
}
