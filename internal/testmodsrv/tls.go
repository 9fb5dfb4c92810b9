package testmodsrv

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TLSServer is a loopback HTTPS server signed by the process's test CA,
// with a client that trusts it; it stops when the test ends.
type TLSServer struct {
	*httptest.Server
	// Host is 127.0.0.1:PORT.
	Host string
	// Client trusts the CA; CAFile is the CA's PEM for client processes.
	Client *http.Client
	CAFile string
}

// StartTLS starts h behind the test CA.
func StartTLS(t testing.TB, h http.Handler) *TLSServer {
	t.Helper()
	cert, pool, caFile := newCA(t)
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return &TLSServer{Server: srv, Host: strings.TrimPrefix(srv.URL, "https://"), CAFile: caFile,
		Client: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}}
}
