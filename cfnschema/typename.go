package cfnschema

import (
	"fmt"
	"strings"
)

// typeName is a CloudFormation type name split into its parts, with the
// Terraform names derived from it.
type typeName struct {
	Org, Service, Resource string
	// Terraform is the resource (and singular data source) type name.
	Terraform string
	// ResourcePart is the snake-cased resource part, used to rename a
	// top-level Id property (flow_log → flow_log_id).
	ResourcePart string
}

// parseTypeName checks a CloudFormation type name ("AWS::EC2::FlowLog": three
// parts of 2 to 64 ASCII letters or digits) and derives its Terraform name:
// the organisation replaced by its prefix (default: the organisation
// lower-cased), the service lower-cased whole and the resource snake-cased
// like an attribute name — awscc_ec2_flow_log, awscc_ec2_dhcp_options.
func parseTypeName(cfn string, prefixes map[string]string) (typeName, error) {
	parts := strings.Split(cfn, "::")
	if len(parts) != 3 {
		return typeName{}, fmt.Errorf("type name %q must have three parts separated by \"::\" (Organization::Service::Resource)", cfn)
	}
	for _, p := range parts {
		if !validTypeNamePart(p) {
			return typeName{}, fmt.Errorf("type name %q: part %q must be 2 to 64 ASCII letters or digits", cfn, p)
		}
	}
	prefix, ok := prefixes[strings.ToLower(parts[0])]
	if !ok {
		prefix = strings.ToLower(parts[0])
	}
	res := AttributeName(parts[2])
	return typeName{
		Org:          parts[0],
		Service:      parts[1],
		Resource:     parts[2],
		Terraform:    prefix + "_" + strings.ToLower(parts[1]) + "_" + res,
		ResourcePart: res,
	}, nil
}

func validTypeNamePart(p string) bool {
	if len(p) < 2 || len(p) > 64 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if !isUpper(p[i]) && !isLower(p[i]) && !isDigit(p[i]) {
			return false
		}
	}
	return true
}
