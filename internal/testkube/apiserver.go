package testkube

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

const (
	// readyTimeout bounds the wait for /readyz. The apiserver is ready in
	// about ten seconds on an idle two-core machine; the bound leaves room
	// for a machine busy with the rest of the race-enabled suite.
	readyTimeout = 3 * time.Minute
	// readyPoll is the pause between /readyz probes.
	readyPoll = 200 * time.Millisecond
	// logTailLines is how much of each log a failure quotes.
	logTailLines = 25
)

// errPortTaken reports that a process could not bind a port picked as
// free: someone took it in between, and a new attempt may succeed.
var errPortTaken = errors.New("port taken")

// etcdArgs are the flags of a single-member etcd on loopback, logging to
// stderr (the process's log file).
func etcdArgs(dataDir string, clientPort, peerPort int) []string {
	client := "http://" + hostPort(clientPort)
	peer := "http://" + hostPort(peerPort)
	return []string{
		"--name=default",
		"--data-dir=" + dataDir,
		"--listen-client-urls=" + client,
		"--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=default=" + peer,
		"--logger=zap",
		"--log-outputs=stderr",
	}
}

// apiserverArgs are the flags of a kube-apiserver on loopback that lets
// every request through (AlwaysAllow) once it is authenticated by the
// token file. The ServiceAccount admission plugin is off because no
// controller manager creates the default service accounts it waits for.
func apiserverArgs(creds credentials, certDir string, etcdPort, securePort int) []string {
	return []string{
		"--etcd-servers=http://" + hostPort(etcdPort),
		"--cert-dir=" + certDir,
		"--tls-cert-file=" + creds.servingCert,
		"--tls-private-key-file=" + creds.servingKey,
		"--secure-port=" + strconv.Itoa(securePort),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--service-account-issuer=https://" + hostPort(securePort),
		"--service-account-key-file=" + creds.saPub,
		"--service-account-signing-key-file=" + creds.saKey,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=AlwaysAllow",
		"--token-auth-file=" + creds.tokenFile,
		"--disable-admission-plugins=ServiceAccount",
	}
}

// restConfig is the client configuration for the apiserver on port: the
// bearer token and the serving certificate's CA. The rate limits are
// raised because tests issue bursts of requests a real client would not.
func restConfig(port int, creds credentials) *rest.Config {
	return &rest.Config{
		Host:            "https://" + hostPort(port),
		BearerToken:     creds.token,
		TLSClientConfig: rest.TLSClientConfig{CAData: creds.caPEM},
		QPS:             200,
		Burst:           400,
	}
}

// waitReady polls /readyz until it answers ok, a process ends, or
// readyTimeout passes. Its errors quote the end of both logs.
func (c *Cluster) waitReady() error {
	client, err := rest.HTTPClientFor(c.config)
	if err != nil {
		return fmt.Errorf("making readiness client: %w", err)
	}
	client.Timeout = 5 * time.Second
	deadline := time.Now().Add(readyTimeout)
	for {
		for _, p := range []*process{c.etcd, c.apiserver} {
			if ended, exitErr := p.exited(); ended {
				return c.exitError(p, exitErr)
			}
		}
		last, ready := probeReady(client, c.config.Host+"/readyz")
		if ready {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kube-apiserver not ready after %s; last /readyz: %s%s", readyTimeout, last, c.logTails())
		}
		time.Sleep(readyPoll)
	}
}

// exitError describes a process that ended during start-up, as
// errPortTaken when its log says a port was in use.
func (c *Cluster) exitError(p *process, exitErr error) error {
	err := fmt.Errorf("%s exited during start-up (%v)%s", p.name, exitErr, c.logTails())
	if log, readErr := os.ReadFile(p.logPath); readErr == nil && strings.Contains(string(log), "address already in use") {
		return fmt.Errorf("%w: %w", errPortTaken, err)
	}
	return err
}

// probeReady asks url once and reports a one-line description of the
// answer, and whether it was 200 ok.
func probeReady(client *http.Client, url string) (string, bool) {
	resp, err := client.Get(url)
	if err != nil {
		return err.Error(), false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	text := strings.Join(strings.Fields(string(body)), " ")
	return fmt.Sprintf("%d %s", resp.StatusCode, text), resp.StatusCode == http.StatusOK
}

// freePorts returns n distinct loopback ports that were free a moment
// ago. They are held open together so they differ; a program may still
// lose one to another process before it binds it (see errPortTaken).
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func hostPort(port int) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
}
