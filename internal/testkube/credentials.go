package testkube

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"k8s.io/client-go/util/cert"
)

// credentials are the files kube-apiserver is started with and what a
// client needs to trust and authenticate to it. Each cluster makes its
// own, so nothing secret lives in the repository.
type credentials struct {
	servingCert, servingKey string // paths, given to --tls-cert-file and --tls-private-key-file
	caPEM                   []byte // the serving certificate and its CA, for clients
	saKey, saPub            string // paths of the service-account signing key pair
	tokenFile               string // path of the --token-auth-file
	token                   string // the bearer token of a system:masters user
}

// writeCredentials generates a serving certificate for 127.0.0.1 and
// localhost, an RSA service-account key pair and a random bearer token,
// and writes them under dir.
func writeCredentials(dir string) (credentials, error) {
	c := credentials{
		servingCert: filepath.Join(dir, "serving.crt"),
		servingKey:  filepath.Join(dir, "serving.key"),
		saKey:       filepath.Join(dir, "sa.key"),
		saPub:       filepath.Join(dir, "sa.pub"),
		tokenFile:   filepath.Join(dir, "tokens.csv"),
	}
	certPEM, keyPEM, err := cert.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{net.IPv4(127, 0, 0, 1)}, []string{"localhost"})
	if err != nil {
		return c, fmt.Errorf("generating serving certificate: %w", err)
	}
	c.caPEM = certPEM
	saKeyPEM, saPubPEM, err := serviceAccountKeys()
	if err != nil {
		return c, err
	}
	c.token, err = randomToken()
	if err != nil {
		return c, err
	}
	files := map[string][]byte{
		c.servingCert: certPEM,
		c.servingKey:  keyPEM,
		c.saKey:       saKeyPEM,
		c.saPub:       saPubPEM,
		// token,user,uid,"group": an administrator, as AlwaysAllow makes
		// every user one anyway.
		c.tokenFile: []byte(c.token + ",cairn-test,cairn-test,\"system:masters\"\n"),
	}
	for path, data := range files {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return c, fmt.Errorf("writing %s: %w", path, err)
		}
	}
	return c, nil
}

// serviceAccountKeys makes the key pair kube-apiserver signs and checks
// service-account tokens with; it refuses to start without one.
func serviceAccountKeys() (keyPEM, pubPEM []byte, err error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, fmt.Errorf("generating service-account key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return nil, nil, fmt.Errorf("encoding service-account public key: %w", err)
	}
	keyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	pubPEM = pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})
	return keyPEM, pubPEM, nil
}

func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generating bearer token: %w", err)
	}
	return hex.EncodeToString(b), nil
}
