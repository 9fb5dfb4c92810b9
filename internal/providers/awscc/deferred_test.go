package awscc

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestDeferredInterfaces: the framework finds a resource's optional
// behaviour by type assertion, so a deferred resource must implement
// exactly the optional interfaces ccResource does (and likewise for data
// sources); one that ccResource gains and the wrapper lacks would be
// silently skipped by every plugin launch.
func TestDeferredInterfaces(t *testing.T) {
	resources := map[string]reflect.Type{
		"ResourceWithConfigure":        reflect.TypeFor[resource.ResourceWithConfigure](),
		"ResourceWithConfigValidators": reflect.TypeFor[resource.ResourceWithConfigValidators](),
		"ResourceWithImportState":      reflect.TypeFor[resource.ResourceWithImportState](),
		"ResourceWithModifyPlan":       reflect.TypeFor[resource.ResourceWithModifyPlan](),
		"ResourceWithMoveState":        reflect.TypeFor[resource.ResourceWithMoveState](),
		"ResourceWithUpgradeState":     reflect.TypeFor[resource.ResourceWithUpgradeState](),
		"ResourceWithValidateConfig":   reflect.TypeFor[resource.ResourceWithValidateConfig](),
		"ResourceWithIdentity":         reflect.TypeFor[resource.ResourceWithIdentity](),
		"ResourceWithUpgradeIdentity":  reflect.TypeFor[resource.ResourceWithUpgradeIdentity](),
	}
	for name, iface := range resources {
		cc, deferred := reflect.TypeFor[*ccResource]().Implements(iface), reflect.TypeFor[*deferredResource]().Implements(iface)
		if cc != deferred {
			t.Errorf("%s: ccResource implements it %v, deferredResource %v", name, cc, deferred)
		}
	}
	dataSources := map[string]reflect.Type{
		"DataSourceWithConfigure":        reflect.TypeFor[datasource.DataSourceWithConfigure](),
		"DataSourceWithConfigValidators": reflect.TypeFor[datasource.DataSourceWithConfigValidators](),
		"DataSourceWithValidateConfig":   reflect.TypeFor[datasource.DataSourceWithValidateConfig](),
	}
	for name, iface := range dataSources {
		cc, deferred := reflect.TypeFor[*ccDataSource]().Implements(iface), reflect.TypeFor[*deferredDataSource]().Implements(iface)
		if cc != deferred {
			t.Errorf("%s: ccDataSource implements it %v, deferredDataSource %v", name, cc, deferred)
		}
	}
}
