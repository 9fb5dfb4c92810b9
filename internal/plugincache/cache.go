package plugincache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
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

// magic starts every entry, before the CRC-32C of the rest (4 bytes, big
// endian). The checksum finds what a cache meets (a torn or truncated
// write, a damaged block, another program's file) at several GB/s with
// the CPU's CRC instruction, where SHA-256 took 55–70 ms over the 10 MB
// answer on a loaded 2-core machine (CRC-32C: 1.5–7 ms); the cache is
// the user's own, so there is no forger to resist.
const magic = "cairn plugin cache v2\n"

// checksum is data's CRC-32C (hash/crc32 makes Castagnoli's table once
// and uses the CPU's instruction where there is one).
func checksum(data []byte) uint32 {
	return crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli))
}

const sumSize = 4

// Read returns the entry name holds; ok is false when there is none or it
// is damaged (the caller derives it again and writes it).
func (c Cache) Read(name string) (data []byte, ok bool) {
	if c.dir == "" {
		return nil, false
	}
	raw, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil || len(raw) < len(magic)+sumSize || string(raw[:len(magic)]) != magic {
		return nil, false
	}
	sum, body := raw[len(magic):len(magic)+sumSize], raw[len(magic)+sumSize:]
	if binary.BigEndian.Uint32(sum) != checksum(body) {
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
	head := binary.BigEndian.AppendUint32([]byte(magic), checksum(data))
	_, err = f.Write(append(head, data...))
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
