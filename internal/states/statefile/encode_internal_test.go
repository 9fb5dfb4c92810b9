package statefile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The hand-written encoder must produce exactly what encoding/json
// produces for the same document, which is what Terraform writes. These
// tests compare the two directly.

func referenceMarshal(t *testing.T, doc *fileV4) []byte {
	t.Helper()
	want, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatalf("json.MarshalIndent: %v", err)
	}
	return want
}

func TestAppendFileMatchesEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.tfstate"))
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstReference(t, src)
		})
	}
}

// checkAgainstReference reads src and, if it is a valid state, checks the
// hand-written encoding of it against encoding/json's.
func checkAgainstReference(t *testing.T, src []byte) {
	t.Helper()
	f, err := Read(bytes.NewReader(src))
	if err != nil {
		return
	}
	doc, err := encodeFile(f)
	if err != nil {
		t.Fatalf("encodeFile: %v", err)
	}
	got, err := appendFile(nil, doc)
	if err != nil {
		t.Fatalf("appendFile: %v", err)
	}
	if diff := cmp.Diff(string(referenceMarshal(t, doc)), string(got)); diff != "" {
		t.Fatalf("appendFile differs from json.MarshalIndent (-want +got):\n%s", diff)
	}
}

func TestAppendFileRejectsInvalidAttributes(t *testing.T) {
	doc := &fileV4{Version: "4", Resources: []resourceV4{{Mode: modeManaged, Type: "t", Name: "n",
		Instances: []instanceV4{{Attributes: json.RawMessage(`{"id":`)}}}}}
	if _, err := appendFile(nil, doc); err == nil {
		t.Fatal("appendFile accepted truncated attribute JSON")
	}
}

func FuzzAppendFileMatchesEncodingJSON(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.tfstate"))
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(checkAgainstReference)
}

// FuzzJSONBytes compares the byte-level transformations with encoding/json
// on arbitrary valid JSON.
func FuzzJSONBytes(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, {}, [], "x<&>\u2028"], "b" : {"c":null}}`,
		"\"\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa\xe2\x80\"",
		`[ "\\\"", "\"<" , true,false ]`,
		` 1.5e3 `,
		`[1 2]`,
		`{"a":tr ue}`,
		`[1. ,2]`,
		"[\"a\tb\" ]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if compact := appendCompact(nil, src); json.Valid(compact) != json.Valid(src) {
			t.Fatalf("appendCompact changed validity: %q is valid: %v, %q is valid: %v", src, json.Valid(src), compact, json.Valid(compact))
		}
		if !json.Valid(src) {
			return
		}
		wantCompact, err := json.Marshal(json.RawMessage(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := appendCompact(nil, src); !bytes.Equal(wantCompact, got) {
			t.Fatalf("appendCompact(%q) = %q, want %q", src, got, wantCompact)
		}
		wantIndent, err := json.MarshalIndent(json.RawMessage(src), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, src, 0); !bytes.Equal(wantIndent, got) {
			t.Fatalf("appendIndented(%q) = %q, want %q", src, got, wantIndent)
		}
	})
}
