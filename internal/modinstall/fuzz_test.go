package modinstall

import "testing"

// FuzzParseSource checks that no source address panics the parser, and
// that where the normalised form parses again it normalises to itself,
// so a manifest's record compares equal with the configuration it came
// from.
func FuzzParseSource(f *testing.F) {
	for _, seed := range []string{
		"./a", "../b//c", "hashicorp/consul/aws", "example.com/a/b/c//d", "github.com/org/repo//x?ref=v1",
		"git@github.com:org/repo.git", "git::https://h/r.git?ref=v1&depth=1", "https://h/x.tar.gz//s?archive=zip",
		"s3::https://s3.amazonaws.com/b/k", "gcs::https://www.googleapis.com/storage/v1/b/k", "hg::https://h/r",
		"/abs/path", "x", "", "git::https://h/r.git//../x", "b.s3.amazonaws.com/k.zip",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		src, err := ParseSource(raw)
		if err != nil {
			return
		}
		again, err := ParseSource(src.String())
		if err != nil {
			// go-getter's detectors turn some odd input into addresses
			// they cannot read again ("git@ :0" becomes
			// "git::ssh://git@%20/0"; an absolute path is put into a
			// file:// URL unescaped). Terraform records the same, and the
			// fetch then fails with go-getter's error.
			return
		}
		if again.String() != src.String() {
			t.Fatalf("ParseSource(%q) = %q, but that normalises to %q", raw, src.String(), again.String())
		}
	})
}
