package refactoring

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/configs"
)

// modulesByDepth lists the modules of the tree, shallower ones first and
// each depth in path order.
func modulesByDepth(root *configs.Module) []*configs.Module {
	var mods []*configs.Module
	root.Walk(func(m *configs.Module) { mods = append(mods, m) })
	sort.SliceStable(mods, func(i, j int) bool { return len(mods[i].Path) < len(mods[j].Path) })
	return mods
}

// sortedResources returns a module's managed resources in source order.
func sortedResources(m *configs.Module) []*configs.Resource {
	out := make([]*configs.Resource, 0, len(m.ManagedResources))
	for _, r := range m.ManagedResources {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].DeclRange, out[j].DeclRange
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
	return out
}
