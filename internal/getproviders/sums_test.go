package getproviders_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/getproviders"
)

func TestParseSHA256Sums(t *testing.T) {
	const h = "8f58f7104cbf22ecfc061a36c68704a6b6f8e3e9b67decd1dc5a0b34ec23f4ba"
	tests := map[string]struct {
		reason  string
		doc     string
		want    map[string]string
		wantErr string
	}{
		"two lines":      {reason: "sha256sum's output", doc: h + "  a.zip\n" + strings.ToUpper(h) + "  b.zip\n", want: map[string]string{"a.zip": h, "b.zip": h}},
		"binary marker":  {reason: "sha256sum -b writes *NAME", doc: h + " *a.zip", want: map[string]string{"a.zip": h}},
		"blank lines":    {reason: "skipped", doc: "\n" + h + "  a.zip\n\n", want: map[string]string{"a.zip": h}},
		"short hash":     {reason: "not SHA-256", doc: "abcd  a.zip\n", wantErr: "line 1"},
		"not hex":        {reason: "not SHA-256", doc: strings.Repeat("g", 64) + "  a.zip\n", wantErr: "is not a SHA-256 hash"},
		"missing name":   {reason: "one field", doc: h + "\n", wantErr: "is not \"HASH  FILENAME\""},
		"name has space": {reason: "three fields", doc: h + "  a b.zip\n", wantErr: "line 1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := getproviders.ParseSHA256Sums([]byte(tc.doc))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("%s: got %v, want %q", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%s: got %d entries, want %d", tc.reason, len(got), len(tc.want))
			}
			for name, sum := range got {
				if hex.EncodeToString(sum[:]) != tc.want[name] {
					t.Errorf("%s: %s = %x, want %s", tc.reason, name, sum, tc.want[name])
				}
			}
		})
	}
}

func TestParseRegistryVersions(t *testing.T) {
	tests := map[string]struct {
		reason  string
		body    string
		want    []string
		wantErr bool
	}{
		"registry document": {reason: "the protocol's shape", body: `{"versions":[{"version":"3.9.0","protocols":["5.0"],"platforms":[{"os":"linux","arch":"amd64"}]},{"version":"3.8.0"}]}`, want: []string{"3.9.0", "3.8.0"}},
		"not semver":        {reason: "dropped, as Terraform drops it", body: `{"versions":[{"version":"latest"},{"version":"1.0.0"}]}`, want: []string{"1.0.0"}},
		"empty":             {reason: "no versions is not an error here", body: `{"versions":[]}`},
		"not json":          {reason: "an HTML error page", body: `<html>`, wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := getproviders.ParseRegistryVersions([]byte(tc.body))
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s: error %v, want error %v", tc.reason, err, tc.wantErr)
			}
			var vs []string
			for _, v := range got {
				vs = append(vs, v.Version)
			}
			if strings.Join(vs, ",") != strings.Join(tc.want, ",") {
				t.Errorf("%s: got %v, want %v", tc.reason, vs, tc.want)
			}
		})
	}
}

func TestParseMirrorIndex(t *testing.T) {
	vs, err := getproviders.ParseMirrorIndex([]byte(`{"versions":{"2.0.0":{},"10.0.0":{},"x":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 || vs[0].String() != "10.0.0" || vs[1].String() != "2.0.0" {
		t.Errorf("got %v, want 10.0.0 then 2.0.0 (newest first, non-versions dropped)", vs)
	}
}
