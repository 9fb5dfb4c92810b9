package getproviders

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
)

// HashPrefixZH starts the legacy zip hash Terraform records for packages
// from a registry: the hex SHA-256 of the release's zip.
const HashPrefixZH = "zh:"

// ParseSHA256Sums reads a SHA256SUMS document (lines "HEX  FILENAME", as
// sha256sum writes them) into file name -> hash. Blank lines are
// skipped; any other line that is not a hash and a name is an error.
func ParseSHA256Sums(doc []byte) (map[string][sha256.Size]byte, error) {
	out := map[string][sha256.Size]byte{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("invalid checksum list: line %d is not \"HASH  FILENAME\"", n)
		}
		sum, err := parseSHA256(fields[0])
		if err != nil {
			return nil, fmt.Errorf("invalid checksum list: line %d: %w", n, err)
		}
		out[strings.TrimPrefix(fields[1], "*")] = sum
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("invalid checksum list: %w", err)
	}
	return out, nil
}

// sumsHashes is every hash of a signed SHA256SUMS as "zh:" hashes,
// sorted: Terraform trusts every platform's hash in a signed document.
func sumsHashes(entries map[string][sha256.Size]byte) []string {
	out := make([]string, 0, len(entries))
	for _, sum := range entries {
		out = append(out, HashPrefixZH+hex.EncodeToString(sum[:]))
	}
	sort.Strings(out)
	return out
}

func parseSHA256(s string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	if len(s) != 2*sha256.Size {
		return sum, fmt.Errorf("%q is not a SHA-256 hash", s)
	}
	if _, err := hex.Decode(sum[:], []byte(s)); err != nil {
		return sum, fmt.Errorf("%q is not a SHA-256 hash", s)
	}
	return sum, nil
}

func fileSHA256(path string) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// errUnknownIssuer is Terraform's words for a checksum document no
// offered key signed: the release is treated as unsigned.
var errUnknownIssuer = errors.New("authentication signature from unknown issuer")

// checkSignature verifies the detached signature sig over doc with each
// ASCII-armored key in turn and returns the signing key's ID (16 upper
// hex digits). A key that did not issue the signature is skipped; a
// signature that fails with the key that issued it is an error.
func checkSignature(armoredKeys []string, doc, sig []byte) (string, error) {
	for _, armor := range armoredKeys {
		ring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(armor))
		if err != nil {
			return "", fmt.Errorf("error decoding signing key: %w", err)
		}
		signer, err := openpgp.CheckDetachedSignature(ring, bytes.NewReader(doc), bytes.NewReader(sig), nil)
		if errors.Is(err, pgperrors.ErrUnknownIssuer) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("error checking signature: %w", err)
		}
		return signer.PrimaryKey.KeyIdString(), nil
	}
	return "", errUnknownIssuer
}
