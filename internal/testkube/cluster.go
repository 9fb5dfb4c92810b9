package testkube

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/rest"
)

// startAttempts bounds how often a start is retried when a port picked as
// free was taken by someone else before etcd or the apiserver bound it.
const startAttempts = 3

// Cluster is a running etcd and kube-apiserver pair on loopback. Its
// methods are safe for concurrent use by the tests sharing it.
type Cluster struct {
	dir        string // temporary root: logs, certificates, etcd data, kubeconfig
	etcd       *process
	apiserver  *process
	config     *rest.Config
	kubeconfig string
	stopOnce   sync.Once
	stopErr    error
}

// Start starts a cluster for one test and stops it in tb.Cleanup. It
// skips the test, naming the install script, when the binaries are not
// installed, and fails it when the cluster does not become ready; the
// failure carries the end of both processes' logs. A failed test keeps
// the logs and says where.
func Start(tb testing.TB) *Cluster {
	tb.Helper()
	bins, err := FindBinaries()
	if err != nil {
		tb.Skipf("testkube: %v", err)
	}
	c, err := start(bins)
	if err != nil {
		tb.Fatalf("testkube: %v", err)
	}
	tb.Cleanup(func() {
		keep := tb.Failed()
		if err := c.stop(keep); err != nil {
			tb.Errorf("testkube: %v", err)
		}
		if keep {
			tb.Logf("testkube: etcd and kube-apiserver logs kept in %s", c.dir)
		}
	})
	return c
}

// StartMain starts a cluster outside any test, for a TestMain that shares
// one cluster among a package's tests. The returned function stops it
// and removes its files. The error wraps ErrNotInstalled when the
// binaries are missing, so TestMain can let the tests skip.
func StartMain() (*Cluster, func() error, error) {
	bins, err := FindBinaries()
	if err != nil {
		return nil, nil, err
	}
	c, err := start(bins)
	if err != nil {
		return nil, nil, err
	}
	return c, func() error { return c.stop(false) }, nil
}

// start makes a temporary root and starts the pair in it, trying again
// with new ports when a port was taken under it.
func start(bins Binaries) (*Cluster, error) {
	var err error
	for attempt := 0; attempt < startAttempts; attempt++ {
		var c *Cluster
		c, err = startOnce(bins)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
	return nil, err
}

// startOnce starts one attempt in a new temporary root. A failed attempt
// keeps its logs for the reader of the error, unless it is retried.
func startOnce(bins Binaries) (*Cluster, error) {
	dir, err := os.MkdirTemp("", "testkube-")
	if err != nil {
		return nil, fmt.Errorf("making temporary directory: %w", err)
	}
	c := &Cluster{dir: dir}
	if err := c.launch(bins); err != nil {
		_ = c.stop(!errors.Is(err, errPortTaken))
		return nil, err
	}
	return c, nil
}

// launch writes the credentials, starts etcd and kube-apiserver on fresh
// loopback ports, waits until the apiserver is ready and writes the
// kubeconfig.
func (c *Cluster) launch(bins Binaries) error {
	certDir := filepath.Join(c.dir, "certs")
	if err := os.Mkdir(certDir, 0o700); err != nil {
		return fmt.Errorf("making certificate directory: %w", err)
	}
	creds, err := writeCredentials(certDir)
	if err != nil {
		return err
	}
	ports, err := freePorts(3)
	if err != nil {
		return err
	}
	etcdClient, etcdPeer, apiPort := ports[0], ports[1], ports[2]
	c.etcd, err = startProcess("etcd", bins.Etcd,
		etcdArgs(filepath.Join(c.dir, "etcd-data"), etcdClient, etcdPeer), filepath.Join(c.dir, "etcd.log"))
	if err != nil {
		return err
	}
	c.apiserver, err = startProcess("kube-apiserver", bins.APIServer,
		apiserverArgs(creds, certDir, etcdClient, apiPort), filepath.Join(c.dir, "kube-apiserver.log"))
	if err != nil {
		return err
	}
	c.config = restConfig(apiPort, creds)
	if err := c.waitReady(); err != nil {
		return err
	}
	c.kubeconfig = filepath.Join(c.dir, "kubeconfig")
	return writeKubeconfig(c.kubeconfig, c.config)
}

// RESTConfig returns a copy of the configuration of a client that
// authenticates as an administrator and trusts the cluster's serving
// certificate. Callers may change the copy.
func (c *Cluster) RESTConfig() *rest.Config {
	return rest.CopyConfig(c.config)
}

// Kubeconfig returns the path of a kubeconfig file for the cluster, for
// programs run by a test (kubectl, a controller binary).
func (c *Cluster) Kubeconfig() string {
	return c.kubeconfig
}

// stop stops kube-apiserver, then etcd, and removes the temporary root;
// with keepLogs it removes only etcd's data and the certificates. Later
// calls return the first call's result.
func (c *Cluster) stop(keepLogs bool) error {
	c.stopOnce.Do(func() {
		var errs []error
		for _, p := range []*process{c.apiserver, c.etcd} {
			if p != nil {
				errs = append(errs, p.stop())
			}
		}
		if keepLogs {
			errs = append(errs, os.RemoveAll(filepath.Join(c.dir, "etcd-data")),
				os.RemoveAll(filepath.Join(c.dir, "certs")))
		} else {
			errs = append(errs, os.RemoveAll(c.dir))
		}
		c.stopErr = errors.Join(errs...)
	})
	return c.stopErr
}

// logTails is the end of both logs, for failure messages.
func (c *Cluster) logTails() string {
	var b strings.Builder
	for _, p := range []*process{c.etcd, c.apiserver} {
		if p != nil {
			fmt.Fprintf(&b, "\n  last lines of %s (%s):\n%s", p.name, p.logPath, p.tail(logTailLines))
		}
	}
	return b.String()
}
