package plugins

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/cfnsources"
)

// TestAWSCCDeleteBeforeReplace: awscc replaces delete-first exactly when
// the new object would take the old one's name: the type's identifier is
// an attribute the program sets, and it stays the same.
func TestAWSCCDeleteBeforeReplace(t *testing.T) {
	p, err := AWSCC(cfnsources.Sources{}, "AWS::Logs::LogGroup,AWS::EC2::VPC")()
	if err != nil {
		t.Fatal(err)
	}
	lg := func(name string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"log_group_name": cty.StringVal(name)})
	}
	cases := []struct {
		what           string
		typ            string
		prior, planned cty.Value
		want           bool
	}{
		{"same name: the new log group would collide", "awscc_logs_log_group", lg("a"), lg("a"), true},
		{"new name: create the new one first", "awscc_logs_log_group", lg("a"), lg("b"), false},
		{"name not known yet", "awscc_logs_log_group", lg("a"), cty.ObjectVal(map[string]cty.Value{"log_group_name": cty.UnknownVal(cty.String)}), false},
		{"AWS names VPCs: no collision", "awscc_ec2_vpc", cty.EmptyObjectVal, cty.EmptyObjectVal, false},
	}
	for _, c := range cases {
		if got := p.DeleteBeforeReplace(c.typ, c.prior, c.planned); got != c.want {
			t.Errorf("%s: got %v, want %v", c.what, got, c.want)
		}
	}
}
