package tests3

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"golang.org/x/sys/unix"
)

// EnvBinary names the environment variable holding versitygw's path.
const EnvBinary = "CAIRN_VERSITYGW"

// Region is the region the server answers for.
const Region = "us-east-1"

// Server is a running versitygw. Its fields are read-only.
type Server struct {
	// URL is the S3 endpoint, http://127.0.0.1:PORT (path-style
	// addressing: clients must set use_path_style / UsePathStyle).
	URL string
	// AccessKey and SecretKey are the root user's credentials, made up
	// for this server.
	AccessKey, SecretKey string
	// Region is Region.
	Region string
	// Bucket is the bucket Start created.
	Bucket string
	// Root is the posix root: one directory per bucket, one file per
	// object (key "a/b" is Root/Bucket/a/b).
	Root string

	bin     string
	addr    string
	sidecar string
	client  *s3.Client

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	out  *syncBuffer
}

// Start starts a server for the test, creates its bucket and waits until
// it answers; the server stops when the test ends. It skips the test when
// CAIRN_VERSITYGW is unset or names no file.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := os.Getenv(EnvBinary)
	if bin == "" {
		t.Skipf("%s is not set: run scripts/install-versitygw.sh (make test does) and export its output", EnvBinary)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("%s=%s: %v: run scripts/install-versitygw.sh (make test does)", EnvBinary, bin, err)
	}
	dir := t.TempDir()
	s := &Server{
		AccessKey: "cairntest" + randomHex(6),
		SecretKey: randomHex(20),
		Region:    Region,
		Bucket:    "cairn-test-" + randomHex(4),
		Root:      filepath.Join(dir, "root"),
		bin:       bin,
	}
	if err := os.Mkdir(s.Root, 0o755); err != nil {
		t.Fatal(err)
	}
	// The posix backend keeps object metadata (ETag, content type,
	// checksums) in extended attributes; where the file system has none,
	// a sidecar directory holds it instead.
	if err := unix.Setxattr(s.Root, "user.cairn-tests3", []byte("1"), 0); err != nil {
		s.sidecar = filepath.Join(dir, "sidecar")
		if err := os.Mkdir(s.sidecar, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.startOnFreePort(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Halt() })
	s.client = s3.NewFromConfig(s.AWSConfig(), func(o *s3.Options) { o.UsePathStyle = true })
	s.CreateBucket(t, s.Bucket)
	return s
}

// startOnFreePort starts the process on a free loopback port, trying
// another when a race for the port lost it.
func (s *Server) startOnFreePort() error {
	var err error
	for range 3 {
		var port int
		if port, err = freePort(); err != nil {
			return err
		}
		s.addr = fmt.Sprintf("127.0.0.1:%d", port)
		s.URL = "http://" + s.addr
		if err = s.Resume(); err == nil {
			return nil
		}
	}
	return err
}

// Halt stops the server (SIGTERM, then SIGKILL after five seconds),
// keeping its files so that Resume can start it again on the same port:
// tests of what a client does while the storage is unreachable. Halting a
// halted server does nothing.
func (s *Server) Halt() error {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return nil
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	return nil
}

// Resume starts a halted server again and waits until it answers.
func (s *Server) Resume() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return nil
	}
	args := []string{"--port", s.addr, "--access", s.AccessKey, "--secret", s.SecretKey,
		"--region", s.Region, "--quiet", "posix"}
	if s.sidecar != "" {
		args = append(args, "--sidecar", s.sidecar)
	}
	cmd := exec.Command(s.bin, append(args, s.Root)...)
	s.out = &syncBuffer{}
	cmd.Stdout, cmd.Stderr = s.out, s.out
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting versitygw: %w", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	if err := waitListening(s.addr, done, 20*time.Second); err != nil {
		_ = cmd.Process.Kill()
		<-done
		return fmt.Errorf("versitygw on %s: %w; its output:\n%s", s.addr, err, s.out.String())
	}
	s.cmd, s.done = cmd, done
	return nil
}

// waitListening waits until addr accepts connections, the process exits
// (done closes) or the time runs out.
func waitListening(addr string, done <-chan struct{}, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-done:
			return errors.New("exited before listening")
		case <-time.After(25 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not listening after %s", limit)
		}
	}
}

// AWSConfig is an SDK configuration reaching the server with its root
// credentials (set UsePathStyle on the S3 client).
func (s *Server) AWSConfig() aws.Config {
	return aws.Config{
		Region:       s.Region,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
		BaseEndpoint: aws.String(s.URL),
	}
}

// Client is an S3 client of the server (path-style), for assertions.
func (s *Server) Client() *s3.Client { return s.client }

// Env is the environment a child process (terraform, tofu, cairn) needs
// to reach the server through the AWS SDK's defaults: credentials, region
// and the S3 endpoint. The backend block must still set use_path_style.
func (s *Server) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_REGION=" + s.Region,
		"AWS_DEFAULT_REGION=" + s.Region,
		"AWS_ENDPOINT_URL_S3=" + s.URL,
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// Output is what the server printed so far, for failure messages.
func (s *Server) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out == nil {
		return ""
	}
	return s.out.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// freePort returns a loopback port nobody listens on now.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// syncBuffer collects a process's output from its copying goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ctx bounds one assertion request.
func ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}
