package planning

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
)

// allListName is the name of the list blocks -all adds: list.TYPE.all.
const allListName = "all"

// addAll adds a job for every list resource type of every default
// provider configuration of the root module that no list block lists
// (cairn query -all). A type whose list block schema requires an
// argument cannot be listed without one: such types are left out, named
// in one warning.
func (q *QueryRun) addAll(ctx context.Context, req QueryRequest) diags.Diagnostics {
	type listedKey struct {
		provider addrs.UniqueKey
		typ      string
	}
	listed := map[listedKey]bool{}
	for _, j := range q.jobs {
		listed[listedKey{j.pAddr.UniqueKey(), j.list.Type}] = true
	}
	var ds diags.Diagnostics
	var skipped []string
	for _, pAddr := range q.rootDefaultProviders() {
		local := q.p.opts.Config.LocalNameForProvider(pAddr.Provider)
		rng := hcl.Range{Filename: "-all"}
		lp, pds := q.listProvider(ctx, pAddr, rng, "-all")
		if ds = ds.Append(pds); pds.HasErrors() {
			return ds
		}
		ls := lp.GetListResourceSchemas(ctx)
		if ds = ds.Append(ls.Diagnostics); ls.Diagnostics.HasErrors() {
			return ds
		}
		for _, typ := range slices.Sorted(maps.Keys(ls.ListResourceTypes)) {
			if listed[listedKey{pAddr.UniqueKey(), typ}] {
				continue
			}
			if requiresArguments(ls.ListResourceTypes[typ].Block) {
				skipped = append(skipped, typ)
				continue
			}
			l := &configs.List{Type: typ, Name: allListName, DeclRange: rng,
				ProviderConfigRef: &configs.ProviderConfigRef{Name: local, NameRange: rng}}
			job, jds := q.listJob(ctx, l, req.WithObjects)
			if jds.HasErrors() {
				ds = ds.Append(asWarnings(jds))
				continue
			}
			job.implied = true
			ds = ds.Append(jds)
			q.jobs = append(q.jobs, job)
		}
	}
	if len(skipped) > 0 {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "List resource types skipped",
			Detail: fmt.Sprintf("-all lists the types that need no arguments. These need some, so list them with a list block and its config block: %s.", strings.Join(skipped, ", "))})
	}
	return ds
}

// rootDefaultProviders returns the default (unaliased) provider
// configurations of the root module, declared or implied, in provider
// order.
func (q *QueryRun) rootDefaultProviders() []addrs.AbsProviderConfig {
	var out []addrs.AbsProviderConfig
	for _, v := range q.p.cg.vertices {
		if v.kind == vProvider && v.provider.Module.IsRoot() && v.provider.Alias == "" && v.provider.Key == nil {
			out = append(out, v.provider)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider.String() < out[j].Provider.String() })
	return out
}

// requiresArguments reports whether a list block schema has a required
// attribute or a nested block that must appear.
func requiresArguments(b *configschema.Block) bool {
	if b == nil {
		return false
	}
	for _, a := range b.Attributes {
		if a.Required {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.MinItems > 0 {
			return true
		}
	}
	return false
}
