package plugincache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Cache is a directory of entries. The zero Cache (no directory) holds
// nothing and keeps nothing. It is safe for concurrent use, by goroutines
// and by processes: writers never expose a partial entry.
type Cache struct {
	dir string
}

// Open returns the cache kept in dir, created on the first write; ""
// disables caching.
func Open(dir string) Cache { return Cache{dir: dir} }

// Dir is where plugins keep their cache: CAIRN_PLUGIN_CACHE, else
// $XDG_CACHE_HOME/cairn/plugins, else ~/.cache/cairn/plugins (the
// user's cache directory, as os.UserCacheDir finds it on Linux); "" when
// none of these is set. CAIRN_PLUGIN_CACHE=off disables the cache.
func Dir(getenv func(string) string) string {
	switch dir := getenv("CAIRN_PLUGIN_CACHE"); dir {
	case "off":
		return ""
	case "":
	default:
		return dir
	}
	if xdg := getenv("XDG_CACHE_HOME"); xdg != "" {
		return filepath.Join(xdg, "cairn", "plugins")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".cache", "cairn", "plugins")
	}
	return ""
}

// magic starts every entry, before the SHA-256 of the rest.
const magic = "cairn plugin cache v1\n"

// Read returns the entry name holds; ok is false when there is none or it
// is damaged (the caller derives it again and writes it).
func (c Cache) Read(name string) (data []byte, ok bool) {
	if c.dir == "" {
		return nil, false
	}
	raw, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil || len(raw) < len(magic)+sha256.Size || string(raw[:len(magic)]) != magic {
		return nil, false
	}
	sum, body := raw[len(magic):len(magic)+sha256.Size], raw[len(magic)+sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, false
	}
	return body, true
}

// Write stores data under name, replacing the entry atomically: a reader
// sees the old entry or the new one, never part of one. Callers may
// ignore the error: a cache that cannot be written only costs the next
// launch the work again.
func (c Cache) Write(name string, data []byte) error {
	if c.dir == "" {
		return nil
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("plugin cache: %w", err)
	}
	f, err := os.CreateTemp(c.dir, name+".*.tmp")
	if err != nil {
		return fmt.Errorf("plugin cache: %w", err)
	}
	sum := sha256.Sum256(data)
	_, err = f.Write(append(append([]byte(magic), sum[:]...), data...))
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(c.dir, name))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("plugin cache: %w", err)
	}
	return nil
}

// Key names an entry by its inputs: a hex SHA-256 of the parts (each
// unambiguous on its own) and of the executable's build (BuildID), so
// another build of Cairn never reads this one's entries.
func Key(parts ...string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", BuildID())
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s\x00", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
