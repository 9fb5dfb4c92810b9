package boltstore

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// damagedFixture writes a store of a few hundred resources and requests
// (several pages of every kind) and returns its bytes and page size.
func damagedFixture(t testing.TB) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		model := fmt.Sprintf(`{"LogGroupName":"group-%03d","RetentionInDays":%d,"Pad":%q}`, i, i, strings.Repeat("x", i))
		if err := db.Insert("AWS::Logs::LogGroup", fmt.Sprintf("group-%03d", i), []byte(model)); err != nil {
			t.Fatal(err)
		}
		if err := db.PutRequest(fmt.Sprintf("token-%03d", i), []byte(model)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 100 {
		db.Delete("AWS::Logs::LogGroup", fmt.Sprintf("group-%03d", i*3))
	}
	db.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

const fixturePage = 4096

// TestOpenRefusesDamage opens damaged copies of a real store: each is
// refused with a DamagedError naming the file (never a panic or a fault),
// and the file is left as it was.
func TestOpenRefusesDamage(t *testing.T) {
	good := damagedFixture(t)
	if len(good) < 8*fixturePage {
		t.Fatalf("fixture is only %d bytes", len(good))
	}
	garbage := func(b []byte, page int) []byte {
		rng := rand.New(rand.NewPCG(uint64(page), 7))
		for i := page * fixturePage; i < (page+1)*fixturePage; i++ {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	cases := map[string]struct {
		reason string
		damage func([]byte) []byte
		want   string
	}{
		"cut in half":      {"a page past the end of the mapping was a SIGBUS", func(b []byte) []byte { return b[:len(b)/2] }, "cut short"},
		"cut mid-page":     {"", func(b []byte) []byte { return b[:len(b)/2+100] }, "cut short"},
		"only meta pages":  {"", func(b []byte) []byte { return b[:2*fixturePage] }, "cut short"},
		"cut inside meta":  {"", func(b []byte) []byte { return b[:1000] }, "not a bbolt database"},
		"both metas gone":  {"", func(b []byte) []byte { return garbage(garbage(b, 0), 1) }, "not a bbolt database"},
		"not a store":      {"", func([]byte) []byte { return []byte("terraform.tfstate?\n") }, "not a bbolt database"},
		"freelist garbage": {"a garbage freelist page was 'panic: invalid freelist page'", func(b []byte) []byte { return garbage(b, freelistPage(t, b)) }, "damaged"},
		"root garbage":     {"a garbage page was 'panic: assertion failed'", func(b []byte) []byte { return garbage(b, rootPage(t, b)) }, "damaged"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			raw := tc.damage(bytes.Clone(good))
			path := filepath.Join(t.TempDir(), "store.db")
			if err := os.WriteFile(path, raw, 0o600); err != nil {
				t.Fatal(err)
			}
			db, err := Open(path)
			if err == nil {
				db.Close()
				t.Fatalf("%s: damaged store opened", tc.reason)
			}
			var damaged *DamagedError
			if !errors.As(err, &damaged) || damaged.Path != path || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want a DamagedError of %s saying %q", tc.reason, err, path, tc.want)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, raw) {
				t.Error("the damaged file was changed")
			}
		})
	}
}

// TestOpenSurvivesAnyGarbagePage overwrites each page of a real store in
// turn with garbage: Open either works (a free page) with every record
// readable, or refuses with a DamagedError. Nothing panics or faults.
func TestOpenSurvivesAnyGarbagePage(t *testing.T) {
	good := damagedFixture(t)
	refused := 0
	for page := range len(good) / fixturePage {
		for _, fill := range []string{"random", "zeros"} {
			raw := bytes.Clone(good)
			rng := rand.New(rand.NewPCG(uint64(page), 1))
			for i := page * fixturePage; i < (page+1)*fixturePage; i++ {
				if fill == "random" {
					raw[i] = byte(rng.Uint32())
				} else {
					raw[i] = 0
				}
			}
			path := filepath.Join(t.TempDir(), "store.db")
			os.WriteFile(path, raw, 0o600)
			db, err := Open(path)
			var damaged *DamagedError
			switch {
			case errors.As(err, &damaged):
				refused++
			case err != nil:
				t.Errorf("page %d %s: %v, want a DamagedError", page, fill, err)
			default:
				n := 0
				err := db.EachRequest(func(string, []byte) error { n++; return nil })
				if err != nil {
					t.Errorf("page %d %s: store opened but reading failed: %v", page, fill, err)
				}
				db.Close()
			}
		}
	}
	t.Logf("%d pages, %d damaged copies refused", len(good)/fixturePage, refused)
	if refused == 0 {
		t.Error("no damaged copy was refused")
	}
}

// TestOpenEmptyFile: a zero-length store starts empty, and says so.
func TestOpenEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n := db.Notice(); !strings.Contains(n, path) || !strings.Contains(n, "empty (0 bytes)") {
		t.Errorf("Notice() = %q, want it to say %s was empty", n, path)
	}
	db.Close()
	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := db.Notice(); n != "" {
		t.Errorf("reopened store: Notice() = %q, want none", n)
	}
}

// currentMeta reads the newer of a bbolt file's two meta pages: after a
// 16-byte page header, magic, version, page size and flags (4 bytes
// each), the root bucket's page and sequence, the freelist page, the high
// water mark and the transaction id (8 bytes each, little-endian).
func currentMeta(t testing.TB, b []byte) (root, freelist uint64) {
	t.Helper()
	var txid uint64
	for page := range 2 {
		m := b[page*fixturePage+16:]
		if tx := le64(m[48:]); page == 0 || tx > txid {
			txid, root, freelist = tx, le64(m[16:]), le64(m[32:])
		}
	}
	if root < 2 || freelist < 2 {
		t.Fatalf("fixture meta: root %d, freelist %d", root, freelist)
	}
	return root, freelist
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func rootPage(t testing.TB, b []byte) int     { r, _ := currentMeta(t, b); return int(r) }
func freelistPage(t testing.TB, b []byte) int { _, f := currentMeta(t, b); return int(f) }

// BenchmarkOpenLargeStore measures Open of a store of 100,000 models,
// which the check before opening reads whole.
func BenchmarkOpenLargeStore(b *testing.B) {
	path := filepath.Join(b.TempDir(), "store.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		b.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		res, _ := tx.CreateBucketIfNotExists(resourcesBucket)
		tx.CreateBucketIfNotExists(requestsBucket)
		typ, _ := res.CreateBucketIfNotExists([]byte("AWS::Logs::LogGroup"))
		for i := range 100_000 {
			if err := typ.Put([]byte(fmt.Sprintf("group-%06d", i)), []byte(fmt.Sprintf(`{"LogGroupName":"group-%06d","RetentionInDays":7}`, i))); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
