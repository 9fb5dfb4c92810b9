package cfnsources

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

// Digest identifies the schema set the sources hold, for keying what is
// derived from it (a plugin's translated schemas): the built-in archive's
// content hash, and the name, size and modification time of every
// schema file in the fetch cache and in Dirs, in layer order. Reading
// the directories' listings costs a few milliseconds where hashing their
// contents would cost a file read each; a file rewritten in place keeps
// its name but gets a new modification time (nanoseconds on the
// file systems Cairn runs on), so a changed set never keeps the digest of
// the old one. The error says a directory exists but cannot be listed.
func (s Sources) Digest() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "cfnsources digest v1\x00dirs-only=%v\x00", s.DirsOnly)
	if !s.DirsOnly {
		fmt.Fprintf(h, "built-in=%s\x00", cfnregistry.BuiltinVersion())
		if err := digestDir(h, "cache", s.CacheDir, isTypeFile); err != nil {
			return "", err
		}
	}
	for _, d := range s.Dirs {
		if err := digestDir(h, "dir", d, isJSONFile); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// digestDir adds dir's path and the listing of the files keep accepts;
// a directory that does not exist adds its path only, as it holds no
// schema (Load reads it the same way).
func digestDir(h hash.Hash, layer, dir string, keep func(string) bool) error {
	fmt.Fprintf(h, "%s=%s\x00", layer, dir)
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing CloudFormation schemas in %s: %w", dir, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		if !e.Type().IsRegular() || !keep(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return fmt.Errorf("listing CloudFormation schemas in %s: %w", dir, err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	return nil
}

// isTypeFile accepts the fetch cache's TYPE.json names (cfnregistry.ReadDir).
func isTypeFile(name string) bool {
	_, ok := cfnregistry.TypeNameOfFile(name)
	return ok
}

// isJSONFile accepts every *.json file, as cfnschema.LoadDir does.
func isJSONFile(name string) bool { return strings.HasSuffix(name, ".json") }
