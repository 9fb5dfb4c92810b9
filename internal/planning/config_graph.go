package planning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/hashicorp/hcl/v2"
)

// vertexKind is what a vertex of the configuration graph stands for.
type vertexKind byte

const (
	vProvider vertexKind = 'P'
	vLocal    vertexKind = 'L'
	vOutput   vertexKind = 'O'
	vResource vertexKind = 'R'
	// vOrphan is a resource that exists in state but not in configuration.
	vOrphan vertexKind = 'X'
)

// vertex is one object of the configuration graph.
type vertex struct {
	kind     vertexKind
	name     string // local or output name
	provider addrs.AbsProviderConfig
	pcfg     *configs.Provider
	local    *configs.Local
	output   *configs.Output
	resource *configs.Resource
	orphan   *states.Resource
}

// String names the vertex as users write it, for cycle reports and DOT.
func (v *vertex) String() string {
	switch v.kind {
	case vProvider:
		return v.provider.String()
	case vLocal:
		return "local." + v.name
	case vOutput:
		return "output." + v.name
	case vResource:
		return v.resource.Addr().String()
	case vOrphan:
		return v.orphan.Addr.String() + " (orphan)"
	}
	return "?"
}

// configGraph is the dependency graph of one configuration plus the
// resources of the prior state that the configuration no longer declares.
type configGraph struct {
	g         *graph.Graph
	vertices  []*vertex
	locals    map[string]int
	resources map[addrs.Resource]int
	providers map[addrs.UniqueKey]int
	// resourceDeps holds, per resource vertex, the resources it depends on
	// directly or through locals: what state records as dependencies.
	resourceDeps map[int][]addrs.AbsResource
}

// buildConfigGraph creates a vertex per provider configuration, local,
// output and resource (and per orphaned resource in prior), and an edge per
// reference or depends_on. Undeclared references and cycles are returned as
// diagnostics.
//
// prepare returns a resource's body prepared for evaluation; the graph takes
// references from it so planning analyses each body once.
func buildConfigGraph(cfg *configs.Module, prior *states.State, schemas providers.Schemas, prepare preparer) (*configGraph, diags.Diagnostics) {
	cg := &configGraph{
		g:            graph.New(0),
		locals:       map[string]int{},
		resources:    map[addrs.Resource]int{},
		providers:    map[addrs.UniqueKey]int{},
		resourceDeps: map[int][]addrs.AbsResource{},
	}
	cg.addVertices(cfg, prior)
	var ds diags.Diagnostics
	for i, v := range cg.vertices {
		refs, rds := vertexReferences(v, schemas, prepare)
		ds = ds.Append(rds)
		ds = ds.Append(cg.connectRefs(i, refs))
		if v.kind == vResource {
			ds = ds.Append(cg.connectDependsOn(i, v.resource.DependsOn))
			cg.g.Connect(i, cg.providerVertex(v.resource.ProviderConfigAddr(), nil))
		}
		if v.kind == vOutput {
			ds = ds.Append(cg.connectDependsOn(i, v.output.DependsOn))
		}
		if v.kind == vOrphan {
			cg.g.Connect(i, cg.providerVertex(v.orphan.ProviderConfig, nil))
		}
	}
	if ds.HasErrors() {
		return cg, ds
	}
	ds = ds.Append(cg.cycleDiags())
	if !ds.HasErrors() {
		cg.computeResourceDeps()
	}
	return cg, ds
}

func (cg *configGraph) add(v *vertex) int {
	cg.vertices = append(cg.vertices, v)
	return cg.g.AddVertex()
}

func (cg *configGraph) addVertices(cfg *configs.Module, prior *states.State) {
	for _, key := range sortedKeys(cfg.ProviderConfigs) {
		pc := cfg.ProviderConfigs[key]
		addr := addrs.AbsProviderConfig{Provider: providerForLocalName(cfg, pc.Name), Alias: pc.Alias}
		cg.providerVertex(addr, pc)
	}
	for _, name := range sortedKeys(cfg.Locals) {
		cg.locals[name] = cg.add(&vertex{kind: vLocal, name: name, local: cfg.Locals[name]})
	}
	for _, name := range sortedKeys(cfg.Outputs) {
		cg.add(&vertex{kind: vOutput, name: name, output: cfg.Outputs[name]})
	}
	for _, m := range []map[string]*configs.Resource{cfg.ManagedResources, cfg.DataResources} {
		for _, key := range sortedKeys(m) {
			r := m[key]
			cg.resources[r.Addr()] = cg.add(&vertex{kind: vResource, resource: r})
		}
	}
	if prior != nil {
		for _, rs := range prior.SortedResources() {
			if cfg.ResourceByAddr(rs.Addr.Resource) == nil {
				cg.add(&vertex{kind: vOrphan, orphan: rs})
			}
		}
	}
}

// providerVertex returns the vertex of a provider configuration, adding
// one (with an empty configuration) when no provider block declares it:
// Terraform lets a default provider configuration be implied.
func (cg *configGraph) providerVertex(addr addrs.AbsProviderConfig, pc *configs.Provider) int {
	key := addr.UniqueKey()
	if i, ok := cg.providers[key]; ok {
		return i
	}
	i := cg.add(&vertex{kind: vProvider, provider: addr, pcfg: pc})
	cg.providers[key] = i
	return i
}

// vertexReferences returns every reference the vertex's expressions make.
func vertexReferences(v *vertex, schemas providers.Schemas, prepare preparer) ([]*addrs.Reference, diags.Diagnostics) {
	switch v.kind {
	case vProvider:
		if v.pcfg == nil {
			return nil, nil
		}
		return lang.ReferencesInBlock(v.pcfg.Config, schemas.ProviderConfigSchema(v.provider.Provider))
	case vLocal:
		return lang.ReferencesInExpr(v.local.Expr)
	case vOutput:
		refs, ds := lang.ReferencesInExpr(v.output.Expr)
		for _, c := range v.output.Preconditions {
			more, mds := lang.ReferencesInExpr(c.Condition)
			refs, ds = append(refs, more...), ds.Append(mds)
		}
		return refs, ds
	case vResource:
		return resourceReferences(v.resource, schemas, prepare)
	}
	return nil, nil
}

// preparer returns a resource body prepared for evaluation with schema.
type preparer func(r *configs.Resource, schema *configschema.Block) *lang.PreparedBlock

func resourceReferences(r *configs.Resource, schemas providers.Schemas, prepare preparer) ([]*addrs.Reference, diags.Diagnostics) {
	var refs []*addrs.Reference
	var ds diags.Diagnostics
	add := func(rs []*addrs.Reference, d diags.Diagnostics) {
		refs = append(refs, rs...)
		ds = ds.Append(d)
	}
	add(lang.ReferencesInExpr(r.Count))
	add(lang.ReferencesInExpr(r.ForEach))
	if schema, _ := schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type); schema != nil {
		pb := prepare(r, schema)
		add(pb.References(), pb.Diagnostics())
	}
	if r.Managed != nil {
		for _, e := range r.Managed.ReplaceTriggeredBy {
			add(lang.ReferencesInExpr(e))
		}
	}
	for _, c := range append(append([]*configs.CheckRule{}, r.Preconditions...), r.Postconditions...) {
		add(lang.ReferencesInExpr(c.Condition))
		add(lang.ReferencesInExpr(c.ErrorMessage))
	}
	return refs, ds
}

// connectRefs adds an edge from v to each vertex a reference names.
func (cg *configGraph) connectRefs(v int, refs []*addrs.Reference) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, ref := range refs {
		switch sub := ref.Subject.(type) {
		case addrs.LocalValue:
			if t, ok := cg.locals[sub.Name]; ok {
				cg.g.Connect(v, t)
			} else {
				ds = ds.Append(diags.At(ref.SourceRange, "Reference to undeclared local value",
					fmt.Sprintf("A local value with the name %q has not been declared.", sub.Name)))
			}
		case addrs.Resource:
			ds = ds.Append(cg.connectResource(v, sub, ref.SourceRange))
		case addrs.ResourceInstance:
			ds = ds.Append(cg.connectResource(v, sub.Resource, ref.SourceRange))
		}
	}
	return ds
}

func (cg *configGraph) connectResource(v int, r addrs.Resource, rng hcl.Range) diags.Diagnostics {
	t, ok := cg.resources[r]
	if !ok {
		what := "managed resource"
		if r.Mode == addrs.DataResourceMode {
			what = "data resource"
		}
		return diags.Diagnostics{diags.At(rng, "Reference to undeclared resource",
			fmt.Sprintf("A %s %q %q has not been declared in the root module.", what, r.Type, r.Name))}
	}
	cg.g.Connect(v, t)
	return nil
}

func (cg *configGraph) connectDependsOn(v int, traversals []hcl.Traversal) diags.Diagnostics {
	refs, ds := lang.References(traversals)
	return ds.Append(cg.connectRefs(v, refs))
}

// cycleDiags reports each cycle, naming its members in order.
func (cg *configGraph) cycleDiags() diags.Diagnostics {
	var ds diags.Diagnostics
	for _, cycle := range cg.g.Cycles() {
		names := make([]string, len(cycle))
		for i, v := range cycle {
			names[i] = cg.vertices[v].String()
		}
		d := diags.Errorf("Cycle: "+strings.Join(names, ", "),
			"These objects refer to each other, so none of them can be evaluated first: %s. Remove one of the references to break the cycle.", strings.Join(names, " → "))
		if r := cg.vertices[cycle[0]].declRange(); r != nil {
			d.Subject = r
		}
		ds = ds.Append(d)
	}
	return ds
}

func (v *vertex) declRange() *hcl.Range {
	switch v.kind {
	case vResource:
		return v.resource.DeclRange.Ptr()
	case vLocal:
		return v.local.DeclRange.Ptr()
	case vOutput:
		return v.output.DeclRange.Ptr()
	case vProvider:
		if v.pcfg != nil {
			return v.pcfg.DeclRange.Ptr()
		}
	}
	return nil
}

// computeResourceDeps records, for each resource vertex, the nearest
// resources it depends on, looking through locals (which state cannot
// name). Linear in the graph size times the locals chain length; chains of
// resources do not compound because the search stops at each resource.
func (cg *configGraph) computeResourceDeps() {
	for i, v := range cg.vertices {
		if v.kind != vResource {
			continue
		}
		seen := map[int]bool{}
		var out []addrs.AbsResource
		var visit func(int)
		visit = func(n int) {
			for _, d := range cg.g.Deps(n) {
				if seen[d] {
					continue
				}
				seen[d] = true
				switch dv := cg.vertices[d]; dv.kind {
				case vResource:
					out = append(out, dv.resource.Addr().Absolute(addrs.RootModuleInstance))
				case vLocal:
					visit(d)
				}
			}
		}
		visit(i)
		sort.Slice(out, func(a, b int) bool { return out[a].String() < out[b].String() })
		cg.resourceDeps[i] = out
	}
}

func providerForLocalName(cfg *configs.Module, name string) addrs.Provider {
	if rp, ok := cfg.RequiredProviders[name]; ok {
		return rp.Source
	}
	if name == "terraform" {
		return addrs.NewBuiltInProvider("terraform")
	}
	return addrs.NewDefaultProvider(name)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
