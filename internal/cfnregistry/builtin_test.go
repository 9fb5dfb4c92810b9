package cfnregistry

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestBuiltinMatchesShared checks the archive holds exactly the schemas of
// ../shared/cfn-schemas, byte for byte, each under its own type name: a
// stale archive (refresh-cfn-schemas.sh not run) fails here.
func TestBuiltinMatchesShared(t *testing.T) {
	docs, err := Builtin(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 1000 {
		t.Fatalf("only %d built-in schemas", len(docs))
	}
	shared := filepath.Join("..", "..", "..", "shared", "cfn-schemas")
	_, statErr := os.Stat(shared)
	for i, d := range docs {
		if i > 0 && FileName(docs[i-1].TypeName) >= FileName(d.TypeName) {
			t.Fatalf("archive not sorted: %s after %s", d.TypeName, docs[i-1].TypeName)
		}
		var head struct {
			TypeName string `json:"typeName"`
		}
		if err := json.Unmarshal(d.Data, &head); err != nil || head.TypeName != d.TypeName {
			t.Errorf("%s: document says typeName %q (%v)", d.Name, head.TypeName, err)
		}
		if statErr == nil {
			want, err := os.ReadFile(filepath.Join(shared, FileName(d.TypeName)))
			if err != nil || string(want) != string(d.Data) {
				t.Errorf("%s differs from the shared copy (%v): run scripts/refresh-cfn-schemas.sh", d.Name, err)
			}
		}
	}
	if statErr == nil {
		files, _ := filepath.Glob(filepath.Join(shared, "*.json"))
		if len(files) != len(docs) {
			t.Errorf("archive has %d schemas, %s has %d", len(docs), shared, len(files))
		}
	}
}

func TestBuiltinKeep(t *testing.T) {
	want := map[string]bool{"AWS::S3::Bucket": true, "AWS::Logs::LogGroup": true, "AWS::No::Such": true}
	docs, err := Builtin(func(n string) bool { return want[n] })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.TypeName)
	}
	if len(got) != 2 || got[0] != "AWS::Logs::LogGroup" || got[1] != "AWS::S3::Bucket" {
		t.Errorf("kept %v", got)
	}
}

func TestFileNames(t *testing.T) {
	for _, tc := range []struct {
		file, typeName string
		ok             bool
	}{
		{"AWS_S3_Bucket.json", "AWS::S3::Bucket", true},
		{"Initech_TPS_Report.json", "Initech::TPS::Report", true},
		{"AWS_S3_Bucket.yaml", "", false},
		{"AWS_S3.json", "", false},
		{"AWS__Bucket.json", "", false},
		{"a_b_c_d.json", "", false},
	} {
		got, ok := TypeNameOfFile(tc.file)
		if got != tc.typeName || ok != tc.ok {
			t.Errorf("TypeNameOfFile(%q) = %q, %v", tc.file, got, ok)
		}
		if ok && FileName(got) != tc.file {
			t.Errorf("FileName(%q) = %q", got, FileName(got))
		}
	}
}

func BenchmarkBuiltinOne(b *testing.B) {
	for b.Loop() {
		if _, err := Builtin(func(n string) bool { return n == "AWS::S3::Bucket" }); err != nil {
			b.Fatal(err)
		}
	}
}
