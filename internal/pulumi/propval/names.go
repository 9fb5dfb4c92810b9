package propval

import (
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"

	"github.com/cairn-iac/cairn/internal/fieldname"
)

// PropertyKey returns the Pulumi property key of attribute attr:
// snake_case becomes lowerCamelCase (log_group_name: logGroupName), the
// same mapping the Kubernetes CRDs use, which is injective over Terraform
// attribute names.
func PropertyKey(attr string) resource.PropertyKey {
	return resource.PropertyKey(fieldname.Camel(attr))
}
