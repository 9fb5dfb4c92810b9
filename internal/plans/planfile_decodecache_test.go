package plans

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// sameAsParse checks that the cached parse of s gives what
// addrs.ParseAbsResourceInstanceStr gives, reading s twice so the second
// read comes from the cache.
func sameAsParse(t *testing.T, dc *decodeCache, s string) {
	t.Helper()
	want, ds := addrs.ParseAbsResourceInstanceStr(s)
	for range 2 {
		got, ok := dc.instanceAddr(s)
		if ok != !ds.HasErrors() || (ok && (!got.Equal(want) || got.String() != want.String())) {
			t.Fatalf("%q read as %s (ok %v); ParseAbsResourceInstanceStr gives %s (%v)", s, got, ok, want, ds)
		}
	}
}

// TestInstanceAddrMatchesParse: addresses read with the resource cache are
// the ones HCL's traversal parser gives, for the keys the short cut takes
// and for everything it must leave to the parser.
func TestInstanceAddrMatchesParse(t *testing.T) {
	for _, s := range []string{
		`terraform_data.x`, `terraform_data.x[0]`, `terraform_data.x[7]`, `terraform_data.x[123456789]`,
		`terraform_data.x[1234567890]`, `terraform_data.x[007]`, `terraform_data.x[-1]`, `terraform_data.x[+1]`,
		`terraform_data.x[1.0]`, `terraform_data.x[1e2]`, `terraform_data.x[]`, `terraform_data.x[ 1]`,
		`terraform_data.x["k"]`, `terraform_data.x[""]`, `terraform_data.x["a b-c.d/e"]`, `terraform_data.x["a\"b"]`,
		`terraform_data.x["a\\b"]`, `terraform_data.x["${x}"]`, `terraform_data.x["$${x}"]`, `terraform_data.x["%{if}"]`,
		`terraform_data.x["é"]`, `terraform_data.x["a[b"]`, `terraform_data.x["a]"]`, `terraform_data.x["a\nb"]`,
		`data.aws_ami.a[2]`, `module.m["a[1]"].x.y[2]`, `module.m[1].module.n["k"].x.y["z"]`, `module.m.x.y[1]`,
		`x.y[1][2]`, `x.y["a"][1]`, `x[1]`, `module.m[1]`, `x.y //[1]`, `x.y /*[1]*/`, `x.y#[1]`, `[1]`, `x.y[1`,
		`x.y["a"`, `x.y[1]]`, `module.m["a].x.y[1]`, `x.y.z[1]`, `data.x[1]`, `x.y[  "k"  ]`,
	} {
		t.Run(s, func(t *testing.T) { sameAsParse(t, newDecodeCache(), s) })
	}
}

// TestInstanceAddrKeepsResourcesApart: instances of different resources
// read in one cache keep their own resource.
func TestInstanceAddrKeepsResourcesApart(t *testing.T) {
	dc := newDecodeCache()
	for _, s := range []string{`a.x[0]`, `a.y[0]`, `data.a.x[0]`, `module.m.a.x[0]`, `module.m[0].a.x[0]`, `a.x["0"]`, `a.x[1]`} {
		sameAsParse(t, dc, s)
	}
}

// FuzzInstanceAddr: for any text, the cached parse agrees with
// addrs.ParseAbsResourceInstanceStr.
func FuzzInstanceAddr(f *testing.F) {
	for _, s := range []string{`terraform_data.x[0]`, `module.m["a"].x.y["k"]`, `x.y //[1]`, `data.a.b[12]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameAsParse(t, newDecodeCache(), s) })
}
