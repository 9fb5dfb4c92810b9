package render

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	tfjson "github.com/hashicorp/terraform-json"
)

// moduleValues collects resource descriptions by module instance and
// nests them as Terraform's JSON documents do: the root module's
// resources, then child_modules, each with its address, its resources
// and its own child_modules. A module instance with no resources of its
// own still appears when a module below it has some.
type moduleValues struct {
	byModule map[string]*tfjson.StateModule
	paths    map[string]addrs.ModuleInstance
}

func newModuleValues() *moduleValues {
	return &moduleValues{byModule: map[string]*tfjson.StateModule{}, paths: map[string]addrs.ModuleInstance{}}
}

// add files r under module instance m.
func (mv *moduleValues) add(m addrs.ModuleInstance, r *tfjson.StateResource) {
	sm := mv.module(m)
	sm.Resources = append(sm.Resources, r)
}

func (mv *moduleValues) module(m addrs.ModuleInstance) *tfjson.StateModule {
	k := m.String()
	sm := mv.byModule[k]
	if sm == nil {
		sm = &tfjson.StateModule{Address: k}
		mv.byModule[k], mv.paths[k] = sm, m
		if len(m) > 0 {
			mv.module(m[:len(m)-1])
		}
	}
	return sm
}

// root returns the nested tree, resources and child modules in address
// order.
func (mv *moduleValues) root() *tfjson.StateModule {
	root := mv.module(addrs.RootModuleInstance)
	keys := make([]string, 0, len(mv.byModule))
	for k := range mv.byModule {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sm := mv.byModule[k]
		sort.SliceStable(sm.Resources, func(i, j int) bool { return sm.Resources[i].Address < sm.Resources[j].Address })
		if m := mv.paths[k]; len(m) > 0 {
			parent := mv.byModule[m[:len(m)-1].String()]
			parent.ChildModules = append(parent.ChildModules, sm)
		}
	}
	return root
}
