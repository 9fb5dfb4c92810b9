package awscc

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/cfnschema"
)

// TestIdentifierAttribute: a type can be named before it exists only when
// its primary identifier is one property the configuration sets.
func TestIdentifierAttribute(t *testing.T) {
	dir := corpusDir(t)
	cases := map[string]struct {
		cfn       string
		terraform string
		want      string
		ok        bool
	}{
		"settable name": {"AWS::Logs::LogGroup", "awscc_logs_log_group", "log_group_name", true},
		"read-only id":  {"AWS::EC2::VPC", "awscc_ec2_vpc", "", false},
		"composite id":  {"AWS::EC2::SubnetRouteTableAssociation", "awscc_ec2_subnet_route_table_association", "", false},
		"unknown type":  {"AWS::Logs::LogGroup", "awscc_nope", "", false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.cfn, "::", "_")+".json")
			c, ds := cfnschema.LoadFiles([]string{file})
			p, err := NewFromCatalog(c, ds, file)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := p.IdentifierAttribute(tc.terraform)
			if got != tc.want || ok != tc.ok {
				t.Errorf("IdentifierAttribute(%s) = %q, %v; want %q, %v", tc.terraform, got, ok, tc.want, tc.ok)
			}
		})
	}
}
