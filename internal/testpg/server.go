package testpg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
)

// ErrNotInstalled means no PostgreSQL server binaries were found.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH)")

// Server is a running private server.
type Server struct {
	dir  string
	bin  string
	port int
	// asPostgres is set when commands run through su as the postgres user.
	asPostgres bool
}

// FindBin returns the directory holding initdb and pg_ctl: the newest
// /usr/lib/postgresql/N/bin (Debian), else initdb's directory on PATH.
func FindBin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Strings(dirs)
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i], nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", ErrNotInstalled
}

// Start creates and starts a server. Stop it with Stop, which also
// removes its files.
func Start() (*Server, error) {
	bin, err := FindBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cairn-testpg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin, asPostgres: os.Geteuid() == 0}
	if err := s.start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

func (s *Server) start() error {
	if s.asPostgres {
		if _, err := user.Lookup("postgres"); err != nil {
			return fmt.Errorf("running as root needs the postgres user: %w", err)
		}
		// initdb refuses to run as root; the postgres user must reach the
		// directory, which MkdirTemp made 0700.
		if err := os.Chmod(s.dir, 0o711); err != nil {
			return err
		}
		if out, err := exec.Command("chown", "postgres", s.dir).CombinedOutput(); err != nil {
			return fmt.Errorf("chown postgres %s: %v: %s", s.dir, err, out)
		}
	}
	if err := s.run(filepath.Join(s.bin, "initdb"), "-D", s.dataDir(), "-A", "trust", "-U", "postgres", "--no-sync"); err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	s.port = port
	return s.Resume()
}

// Resume starts a server stopped with Halt again, on the same port.
func (s *Server) Resume() error {
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1", s.port, s.dir)
	return s.run(filepath.Join(s.bin, "pg_ctl"), "-D", s.dataDir(), "-o", opts, "-l", filepath.Join(s.dir, "log"), "start", "-w")
}

// Halt stops the server at once (as a crash would, without a shutdown
// checkpoint), keeping its files so that Resume can start it again.
func (s *Server) Halt() error {
	return s.run(filepath.Join(s.bin, "pg_ctl"), "-D", s.dataDir(), "stop", "-m", "immediate", "-w")
}

func (s *Server) dataDir() string { return filepath.Join(s.dir, "data") }

// run runs a server program, as the postgres user when started as root.
func (s *Server) run(prog string, args ...string) error {
	var cmd *exec.Cmd
	if s.asPostgres {
		quoted := make([]string, 0, len(args)+1)
		for _, a := range append([]string{prog}, args...) {
			quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
		}
		cmd = exec.Command("su", "postgres", "-c", strings.Join(quoted, " "))
	} else {
		cmd = exec.Command(prog, args...)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v: %s", filepath.Base(prog), err, out)
	}
	return nil
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

// ConnString is the URL of database db on the server.
func (s *Server) ConnString(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// CreateDatabase creates database name (a plain identifier) and returns
// its URL.
func (s *Server) CreateDatabase(ctx context.Context, name string) (string, error) {
	conn, err := pgx.Connect(ctx, s.ConnString("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("creating database %s: %w", name, err)
	}
	return s.ConnString(name), nil
}

// Stop stops the server immediately and removes its files.
func (s *Server) Stop() error {
	return errors.Join(s.Halt(), os.RemoveAll(s.dir))
}
