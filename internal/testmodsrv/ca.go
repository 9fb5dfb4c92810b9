package testmodsrv

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// testCA is the one CA of a test process. Go loads SSL_CERT_FILE once
// per process, so every server a process starts must be signed by the CA
// that file held first; go-getter's X-Terraform-Get step uses the
// system pool, not the client a test passes.
type testCA struct {
	once sync.Once
	cert tls.Certificate
	pool *x509.CertPool
	file string
	err  error
}

var processCA testCA

// newCA returns the process's server certificate for 127.0.0.1 and
// localhost, the pool trusting its CA, and the CA's PEM file (in a
// directory of its own that outlives any one test).
func newCA(t testing.TB) (tls.Certificate, *x509.CertPool, string) {
	t.Helper()
	processCA.once.Do(func() {
		dir, err := os.MkdirTemp("", "testmodsrv-ca-")
		if err != nil {
			processCA.err = err
			return
		}
		processCA.cert, processCA.pool, processCA.file = makeCA(t, dir)
	})
	if processCA.err != nil {
		t.Fatal(processCA.err)
	}
	return processCA.cert, processCA.pool, processCA.file
}

// makeCA makes a CA and a server certificate signed by it; it writes the
// CA's PEM into dir and returns its path.
func makeCA(t testing.TB, dir string) (tls.Certificate, *x509.CertPool, string) {
	caKey := mustKey(t)
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "testmodsrv CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key := mustKey(t)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caPath := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool, caPath
}

func mustKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}
