package plans

import "github.com/cairn-iac/cairn/internal/addrs"

// Providers lists every provider the plan names, in address order: the
// providers its operation graph configures, those of its changes, and
// those of the resources in its prior and previous-run states. Applying
// the plan needs their schemas to decode what it recorded, and rendering
// it to show its changes and drift.
func (p *Plan) Providers() []addrs.Provider {
	var list []addrs.Provider
	if p.Graph != nil {
		for _, pc := range p.Graph.Providers {
			list = append(list, pc.Provider)
		}
	}
	for _, c := range p.Changes {
		list = append(list, c.Provider.Provider)
	}
	return addrs.SortedProviders(list, p.PriorState.Providers(), p.PrevRunState.Providers())
}
