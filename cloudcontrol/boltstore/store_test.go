package boltstore

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "store.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func TestStoreOperations(t *testing.T) {
	const typ = "AWS::Logs::LogGroup"
	cases := map[string]struct {
		reason  string
		op      func(db *DB) error
		wantErr error
		want    string // model of "a" afterwards, "" when absent
	}{
		"insert new":        {op: func(db *DB) error { return db.Insert(typ, "b", []byte("B")) }, want: "A"},
		"insert taken":      {op: func(db *DB) error { return db.Insert(typ, "a", []byte("X")) }, wantErr: cloudcontrol.ErrExists, want: "A"},
		"put existing":      {op: func(db *DB) error { return db.Put(typ, "a", []byte("X")) }, want: "X"},
		"put missing":       {op: func(db *DB) error { return db.Put(typ, "z", []byte("X")) }, wantErr: cloudcontrol.ErrNotFound, want: "A"},
		"put unknown type":  {op: func(db *DB) error { return db.Put("X::Y::Z", "a", []byte("X")) }, wantErr: cloudcontrol.ErrNotFound, want: "A"},
		"delete existing":   {op: func(db *DB) error { return db.Delete(typ, "a") }},
		"delete missing":    {op: func(db *DB) error { return db.Delete(typ, "z") }, wantErr: cloudcontrol.ErrNotFound, want: "A"},
		"same id, new type": {reason: "types are separate key spaces", op: func(db *DB) error { return db.Insert("X::Y::Z", "a", []byte("X")) }, want: "A"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			db, _ := openTemp(t)
			if err := db.Insert(typ, "a", []byte("A")); err != nil {
				t.Fatal(err)
			}
			if err := tc.op(db); !errors.Is(err, tc.wantErr) {
				t.Errorf("%s: error %v, want %v", tc.reason, err, tc.wantErr)
			}
			got, err := db.Get(typ, "a")
			if tc.want == "" {
				if !errors.Is(err, cloudcontrol.ErrNotFound) {
					t.Errorf("Get after: %q, %v; want ErrNotFound", got, err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("Get after: %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestListPaging(t *testing.T) {
	db, _ := openTemp(t)
	for _, id := range []string{"c", "a", "e", "b", "d"} {
		db.Insert("T", id, []byte(id))
	}
	db.Insert("U", "0", nil)
	cases := map[string]struct {
		after    string
		limit    int
		want     []string
		wantMore bool
	}{
		"first page":   {limit: 2, want: []string{"a", "b"}, wantMore: true},
		"middle":       {after: "b", limit: 2, want: []string{"c", "d"}, wantMore: true},
		"last":         {after: "d", limit: 2, want: []string{"e"}},
		"exact end":    {after: "c", limit: 2, want: []string{"d", "e"}},
		"after a gap":  {after: "bb", limit: 10, want: []string{"c", "d", "e"}},
		"no limit":     {want: []string{"a", "b", "c", "d", "e"}},
		"past the end": {after: "z", limit: 2},
		"unknown type": {},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			typ := "T"
			if name == "unknown type" {
				typ = "V"
			}
			ids, more, err := db.List(typ, tc.after, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" || more != tc.wantMore {
				t.Errorf("ids (-want +got):\n%s more=%v want %v", diff, more, tc.wantMore)
			}
		})
	}
}

// TestConcurrentInsert: of many concurrent Inserts of one key exactly
// one succeeds.
func TestConcurrentInsert(t *testing.T) {
	db, _ := openTemp(t)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = db.Insert("T", "k", []byte(fmt.Sprint(i)))
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, cloudcontrol.ErrExists):
			t.Errorf("unexpected error %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d inserts succeeded, want 1", ok)
	}
}

// TestReopen: what was written is there after the file is reopened.
func TestReopen(t *testing.T) {
	db, path := openTemp(t)
	db.Insert("T", "a", []byte("A"))
	db.PutRequest("r1", []byte("one"))
	db.PutRequest("r2", []byte("two"))
	db.PutRequest("r1", []byte("uno"))
	db.DeleteRequest("r2")
	db.Close()
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := map[string]string{}
	db.EachRequest(func(token string, rec []byte) error {
		got[token] = string(rec)
		return nil
	})
	if m, err := db.Get("T", "a"); err != nil || string(m) != "A" {
		got["model"] = fmt.Sprintf("%q %v", m, err)
	}
	if r, err := db.GetRequest("r1"); err != nil || string(r) != "uno" {
		got["get"] = fmt.Sprintf("%q %v", r, err)
	}
	if diff := cmp.Diff(map[string]string{"r1": "uno"}, got); diff != "" {
		t.Errorf("after reopen (-want +got):\n%s", diff)
	}
}
