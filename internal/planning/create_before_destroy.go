package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// forcedCreateBeforeDestroy returns the managed resources (by
// ConfigResource key) that plan with create_before_destroy: those whose
// configuration sets it, and every resource that one of them depends on,
// directly, through locals or depends_on, or transitively. Objects in prior
// state that are no longer configured and were created before destroy
// force it on the resources they recorded as dependencies too.
//
// Terraform decides this from the configuration before planning any
// instance, whatever the dependent's own action: a dependency replaced
// while its create_before_destroy dependent is only updated is still
// replaced create-before-destroy, and the setting is recorded in state.
// Deciding it statically also keeps the apply graph acyclic: a
// create-before-destroy dependent never has to outlive the old object of
// a delete-then-create dependency.
func forcedCreateBeforeDestroy(cg *configGraph, prior *states.State) map[addrs.UniqueKey]bool {
	out := map[addrs.UniqueKey]bool{}
	seen := map[int]bool{}
	var mark func(addrs.ConfigResource)
	mark = func(r addrs.ConfigResource) {
		i, ok := cg.resourceVertex(r)
		if !ok || seen[i] {
			return
		}
		seen[i] = true
		// A data source is not replaced, but what it depends on is still
		// a dependency of the resource that reads it.
		out[r.UniqueKey()] = cg.vertices[i].resource.Mode == addrs.ManagedResourceMode
		for _, d := range cg.resourceDeps[i] {
			mark(d.Config())
		}
	}
	for _, v := range cg.vertices {
		if v.kind == vResource && v.resource.Managed != nil && v.resource.Managed.CreateBeforeDestroy {
			mark(v.resource.Addr().InModule(v.module))
		}
	}
	if prior != nil {
		for _, rs := range prior.Resources {
			if _, configured := cg.resourceVertex(rs.Addr.Config()); configured {
				continue
			}
			for _, is := range rs.Instances {
				if is.Current == nil || !is.Current.CreateBeforeDestroy {
					continue
				}
				for _, d := range is.Current.Dependencies {
					mark(d.Config())
				}
			}
		}
	}
	return out
}
