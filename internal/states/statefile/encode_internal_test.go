package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/parallel"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
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

// FuzzObjectRecordMatchesEncodingJSON holds the hand-written record
// encoder to encoding/json's compact output.
func FuzzObjectRecordMatchesEncodingJSON(f *testing.F) {
	f.Add([]byte(`{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instance":{"index_key":1,"status":"tainted","schema_version":3,"attributes":{"id":"<x>"},"sensitive_attributes":[[{"type":"get_attr","value":"id"}]],"private":"AQ==","dependencies":["b.c","a.b"],"create_before_destroy":true}}`))
	f.Add([]byte(`{"module":"module.m[\"k\"]","mode":"data","type":"t","name":"n","provider":"module.m[\"k\"].provider[\"a/b/c\"].x","removed":true,"instance":{"index_key":"q\u2028","deposed":"0000000a"}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		var r ObjectRecord
		if r.UnmarshalJSON(src) != nil {
			return
		}
		got, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		v4, err := r.toV4()
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(v4)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			t.Fatalf("MarshalJSON differs from encoding/json:\nwant %s\ngot  %s", want, got)
		}
	})
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `provider["a/b/c"]`, `back\\slash`, "<&>", "\u2028", "\x00\xff", "ünï"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(want, got) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestAppendFileLargeMatchesEncodingJSON: a state big enough to be encoded
// on several cores still comes out exactly as encoding/json lays it out,
// resources in Terraform's order.
func TestAppendFileLargeMatchesEncodingJSON(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	s := states.NewState()
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range 3 * parallel.MinItems {
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: fmt.Sprintf("r%d", i)}.
			Absolute(addrs.RootModuleInstance).Instance(addrs.IntKey(i % 3))
		s.SetResourceInstanceCurrent(addr, &states.ObjectSrc{
			AttrsJSON: fmt.Appendf(nil, `{"id":"%d","input":{"value":[%d,"x"],"type":["tuple",["number","string"]]}}`, i, i),
			Status:    states.ObjectReady,
		}, provider)
	}
	doc, err := encodeFile(&File{TerraformVersion: "1.5.7", Serial: 1, Lineage: "l", State: s})
	if err != nil {
		t.Fatal(err)
	}
	got, err := appendFile(nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(referenceMarshal(t, doc)), string(got)); diff != "" {
		t.Fatalf("appendFile differs from json.MarshalIndent (-want +got):\n%s", diff)
	}
}

// TestAppendFileReportsFirstBadResource: with several resources unable to
// be encoded, the error names the first in file order, whichever core
// got to it first.
func TestAppendFileReportsFirstBadResource(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	doc := &fileV4{Version: "4"}
	for i := range 3 * parallel.MinItems {
		attrs := json.RawMessage(`{"id":"x"}`)
		if i%50 == 7 {
			attrs = json.RawMessage(`{"id":`)
		}
		doc.Resources = append(doc.Resources, resourceV4{Mode: modeManaged, Type: "t", Name: fmt.Sprintf("n%03d", i),
			Instances: []instanceV4{{Attributes: attrs}}})
	}
	for range 20 {
		_, err := appendFile(nil, doc)
		if err == nil || !strings.Contains(err.Error(), "t.n007") {
			t.Fatalf("error = %v, want one about t.n007", err)
		}
	}
}

// TestEncodeFileReportsFirstBadResource: the same for objects whose
// sensitive paths cannot be encoded, found while encoding on every core.
func TestEncodeFileReportsFirstBadResource(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	s := states.NewState()
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	for i := range 3 * parallel.MinItems {
		obj := &states.ObjectSrc{AttrsJSON: []byte(`{"id":"x"}`), Status: states.ObjectReady}
		if i%50 == 7 {
			obj.AttrSensitivePaths = []cty.Path{{cty.IndexStep{Key: cty.UnknownVal(cty.String)}}}
		}
		addr := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "t", Name: fmt.Sprintf("n%03d", i)}.
			Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
		s.SetResourceInstanceCurrent(addr, obj, provider)
	}
	for range 20 {
		_, err := encodeFile(&File{State: s})
		if err == nil || !strings.Contains(err.Error(), "t.n007") {
			t.Fatalf("error = %v, want one about t.n007", err)
		}
	}
}
