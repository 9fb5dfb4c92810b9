package funcs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestIPNetworkFunctions(t *testing.T) {
	runExprCases(t, Table(t.TempDir()), map[string]exprCase{
		"cidrhost":      {expr: `cidrhost("10.12.112.0/20", 268)`, want: cty.StringVal("10.12.113.12")},
		"cidrhost last": {reason: "a negative host number counts from the end", expr: `cidrhost("10.12.112.0/20", -2)`, want: cty.StringVal("10.12.127.254")},
		"cidrhost IPv6": {expr: `cidrhost("fd00:fd12:3456:7890::/56", 16)`, want: cty.StringVal("fd00:fd12:3456:7800::10")},
		"cidrhost leading zeros": {
			reason: "Terraform 1.5 reads 010 as decimal 10",
			expr:   `cidrhost("010.012.112.000/20", 16)`,
			want:   cty.StringVal("10.12.112.16"),
		},
		"cidrhost too big": {expr: `cidrhost("10.0.0.0/30", 5)`, wantErr: "does not accommodate a host numbered 5"},
		"cidrhost bad":     {expr: `cidrhost("10.0.0/8", 1)`, wantErr: "invalid CIDR expression"},
		"cidrhost sensitive prefix": {
			reason:  "the library quotes the prefix",
			expr:    `cidrhost(secret, 1)`,
			wantErr: hiddenReason,
		},
		"cidrhost unknown":    {expr: `cidrhost(unknown_str, 1)`, want: cty.UnknownVal(cty.String)},
		"cidrnetmask":         {expr: `cidrnetmask("172.16.0.0/12")`, want: cty.StringVal("255.240.0.0")},
		"cidrnetmask zeros":   {expr: `cidrnetmask("172.016.0.0/12")`, want: cty.StringVal("255.240.0.0")},
		"cidrnetmask IPv6":    {expr: `cidrnetmask("fd00::/8")`, wantErr: "IPv6 addresses cannot have a netmask"},
		"cidrnetmask bad":     {expr: `cidrnetmask("172.16.0.0")`, wantErr: "invalid CIDR expression"},
		"cidrsubnet":          {expr: `cidrsubnet("172.16.0.0/12", 4, 2)`, want: cty.StringVal("172.18.0.0/16")},
		"cidrsubnet IPv6":     {expr: `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, want: cty.StringVal("fd00:fd12:3456:7800:a200::/72")},
		"cidrsubnet too wide": {expr: `cidrsubnet("10.0.0.0/8", 33, 0)`, wantErr: "may not extend prefix by more than 32 bits"},
		"cidrsubnet no room":  {expr: `cidrsubnet("10.0.0.0/30", 4, 0)`, wantErr: "insufficient address space"},
		"cidrsubnets": {
			expr: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`,
			want: strList("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20"),
		},
		"cidrsubnets none": {expr: `cidrsubnets("10.1.0.0/16")`, want: cty.ListValEmpty(cty.String)},
		"cidrsubnets zero": {expr: `cidrsubnets("10.1.0.0/16", 0)`, wantErr: "must extend prefix by at least one bit"},
	})
}

func TestLegacyIPv4Prefix(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"plain":         {reason: "a canonical prefix is unchanged", in: "10.0.0.0/8", want: "10.0.0.0/8"},
		"leading zeros": {reason: "octets lose leading zeros", in: "010.001.000.255/16", want: "10.1.0.255/16"},
		"no bits":       {reason: "an address without a prefix length is handled too", in: "001.2.3.4", want: "1.2.3.4"},
		"IPv6":          {reason: "IPv6 is left to the library", in: "fd00::0001/64", want: "fd00::0001/64"},
		"not a number":  {reason: "anything odd is left for the library to reject", in: "0x1.2.3.4/8", want: "0x1.2.3.4/8"},
		"three octets":  {reason: "only dotted quads are rewritten", in: "010.0.0/8", want: "010.0.0/8"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, legacyIPv4Prefix(tc.in)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
