package testkube

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// stopGrace is how long a process has to exit after SIGTERM before it is
// killed. kube-apiserver drains for a few seconds on SIGTERM; the tests
// gain nothing from waiting for that.
const stopGrace = 5 * time.Second

// process is one child program whose output goes to a log file. It owns
// the goroutine that waits for the program, and reports its end through
// done; exitErr is written by that goroutine before done closes.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	done    chan struct{}
	exitErr error
}

// startProcess runs path with args, its stdout and stderr appended to
// logPath. The child is asked to die with the test process (see
// procAttr) so a crashed test leaves no apiserver behind.
func startProcess(name, path string, args []string, logPath string) (*process, error) {
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening %s log: %w", name, err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout = log
	cmd.Stderr = log
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("starting %s (%s): %w", name, path, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, done: make(chan struct{})}
	go func() {
		p.exitErr = cmd.Wait()
		log.Close()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has ended, and how.
func (p *process) exited() (bool, error) {
	select {
	case <-p.done:
		return true, p.exitErr
	default:
		return false, nil
	}
}

// stop sends SIGTERM, waits up to stopGrace, then kills the process and
// waits for it. Stopping an ended process does nothing. It returns an
// error only when the process could not be signalled.
func (p *process) stop() error {
	if ended, _ := p.exited(); ended {
		return nil
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("stopping %s: %w", p.name, err)
	}
	timer := time.NewTimer(stopGrace)
	defer timer.Stop()
	select {
	case <-p.done:
		return nil
	case <-timer.C:
	}
	if err := p.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("killing %s: %w", p.name, err)
	}
	<-p.done
	return nil
}

// tail returns the last n lines of the process's log, for failure
// messages; a log that cannot be read says so instead.
func (p *process) tail(n int) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("(reading %s: %v)", p.logPath, err)
	}
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	var b strings.Builder
	for _, line := range lines {
		b.WriteString("    ")
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}
