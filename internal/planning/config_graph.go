package planning

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// configGraph is the dependency graph of one configuration plus the
// resources of the prior state that the configuration no longer declares.
// Vertices are configuration objects, keyed by their static module path:
// planning visits each in every instance of its module.
type configGraph struct {
	g         *graph.Graph
	vertices  []*vertex
	locals    map[addrs.UniqueKey]int // by AbsLocalValue in the unkeyed module instance
	resources map[addrs.UniqueKey]int // by ConfigResource
	providers map[addrs.UniqueKey]int // by AbsProviderConfig
	// calls holds the vCall vertex of each child module, by its path;
	// variables and outputs the vVariable and vOutput vertices by module
	// path and name; modules every vertex of each module path.
	calls     map[string]int
	variables map[moduleName]int
	// validations holds the vValidation vertex of each variable whose
	// rules refer to other objects: references to the variable wait for
	// it, so they see a validated value (OpenTofu's order).
	validations map[moduleName]int
	// rootVariables names the root module's declared variables, which
	// have no vertices (their values are set before the walk) but whose
	// references must still name one.
	rootVariables map[string]bool
	outputs       map[moduleName]int
	modules       map[string][]int
	// resourceDeps holds, per resource vertex, every resource it depends
	// on, directly or through anything else: what state records as
	// dependencies, as Terraform records them (module paths without
	// keys). Shared, read-only.
	resourceDeps map[int][]addrs.AbsResource
	// refs holds each vertex's references, and refDiags the problems
	// found resolving them (undeclared objects, bad depends_on), by
	// vertex: validation reports them where Terraform does, at the
	// vertex, and checks the references against schemas. cycles holds
	// the cycle errors, which stop validation before any vertex.
	// dataWatch holds, per data resource vertex, the managed resource
	// vertices whose pending changes defer its read (computeDataWatch).
	dataWatch map[int][]int
	refs      [][]*addrs.Reference
	refDiags  []diags.Diagnostics
	cycles    diags.Diagnostics
}

// moduleName keys a named object of a module path.
type moduleName struct {
	module string
	name   string
}

// resourceVertex returns the vertex of a configured resource.
func (cg *configGraph) resourceVertex(r addrs.ConfigResource) (int, bool) {
	i, ok := cg.resources[r.UniqueKey()]
	return i, ok
}

// localKey keys a local value of a module in cg.locals.
func localKey(m addrs.Module, name string) addrs.UniqueKey {
	return addrs.LocalValue{Name: name}.Absolute(m.UnkeyedInstance()).UniqueKey()
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
		g:             graph.New(0),
		locals:        map[addrs.UniqueKey]int{},
		resources:     map[addrs.UniqueKey]int{},
		providers:     map[addrs.UniqueKey]int{},
		calls:         map[string]int{},
		variables:     map[moduleName]int{},
		validations:   map[moduleName]int{},
		rootVariables: map[string]bool{},
		outputs:       map[moduleName]int{},
		modules:       map[string][]int{},
		resourceDeps:  map[int][]addrs.AbsResource{},
	}
	cfg.Walk(func(mod *configs.Module) { cg.addModuleVertices(mod) })
	cg.addOrphans(prior)
	refs := allReferences(cg.vertices, schemas, prepare)
	// Provider vertices implied by resources are added below, after the
	// vertices whose references were found; they make none.
	cg.refs = make([][]*addrs.Reference, len(cg.vertices))
	cg.refDiags = make([]diags.Diagnostics, len(cg.vertices))
	var ds diags.Diagnostics
	for i, v := range cg.vertices[:len(refs)] {
		cg.refs[i] = refs[i].refs
		cg.refDiags[i] = cg.connectVertex(i, v, refs[i])
		ds = ds.Append(cg.refDiags[i])
	}
	for len(cg.refs) < len(cg.vertices) {
		cg.refs, cg.refDiags = append(cg.refs, nil), append(cg.refDiags, nil)
	}
	cg.cycles = cg.cycleDiags()
	ds = ds.Append(cg.cycles)
	if !ds.HasErrors() {
		cg.computeResourceDeps()
		// An import block's references order the walk but are no
		// dependencies of its target in state, as in OpenTofu 1.12; a
		// cycle through them is still one.
		if len(cfg.Imports) > 0 {
			ds = ds.Append(cg.connectImports(cfg.Imports))
			cg.cycles = cg.cycleDiags()
			ds = ds.Append(cg.cycles)
		}
	}
	if !ds.HasErrors() {
		cg.orderScopedData()
		cg.computeDataWatch()
	}
	return cg, ds
}

// connectVertex adds the edges of vertex i: to what its references and
// depends_on name, to its module call, to its provider configuration. It
// returns the problems found on the way.
func (cg *configGraph) connectVertex(i int, v *vertex, refs vertexRefs) diags.Diagnostics {
	ds := refs.diags.Append(cg.connectRefs(i, v.refModule(), refs.refs))
	if c, ok := cg.calls[v.module.String()]; ok && !v.module.IsRoot() && v.kind != vOrphan {
		cg.g.Connect(i, c)
	}
	switch v.kind {
	case vCall:
		ds = ds.Append(cg.connectDependsOn(i, v.module, v.call.DependsOn))
	case vResource:
		ds = ds.Append(cg.connectDependsOn(i, v.module, v.resource.DependsOn))
		cg.g.Connect(i, cg.providerVertex(v.resource.ProviderConfigAddr(), nil))
	case vOutput:
		ds = ds.Append(cg.connectDependsOn(i, v.module, v.output.DependsOn))
	case vOrphan:
		cg.g.Connect(i, cg.providerVertex(v.orphan.ProviderConfig, nil))
	case vCheck:
		cg.connectScopedData(i, v)
	}
	return ds
}

func (cg *configGraph) add(v *vertex) int {
	cg.vertices = append(cg.vertices, v)
	i := cg.g.AddVertex()
	k := v.module.String()
	cg.modules[k] = append(cg.modules[k], i)
	return i
}

// addModuleVertices adds the objects of one module of the tree: provider
// configurations, locals, outputs, resources, the module calls it makes
// and, for a child, its input variables.
func (cg *configGraph) addModuleVertices(mod *configs.Module) {
	path := mod.Path
	for _, key := range slices.Sorted(maps.Keys(mod.ProviderConfigs)) {
		pc := mod.ProviderConfigs[key]
		cg.providerVertex(addrs.AbsProviderConfig{Module: path, Provider: pc.Source, Alias: pc.Alias}, pc)
	}
	for _, name := range slices.Sorted(maps.Keys(mod.Locals)) {
		cg.locals[localKey(path, name)] = cg.add(&vertex{kind: vLocal, module: path, name: name, local: mod.Locals[name]})
	}
	for _, name := range slices.Sorted(maps.Keys(mod.Outputs)) {
		cg.outputs[moduleName{path.String(), name}] = cg.add(&vertex{kind: vOutput, module: path, name: name, output: mod.Outputs[name]})
	}
	for _, name := range slices.Sorted(maps.Keys(mod.Variables)) {
		v := mod.Variables[name]
		if _, cross := v.CrossRefValidations(); len(cross) > 0 {
			cg.validations[moduleName{path.String(), name}] = cg.add(&vertex{kind: vValidation, module: path, name: name, variable: v})
		}
	}
	if path.IsRoot() {
		for name := range mod.Variables {
			cg.rootVariables[name] = true
		}
	} else {
		for _, name := range slices.Sorted(maps.Keys(mod.Variables)) {
			cg.variables[moduleName{path.String(), name}] = cg.add(&vertex{kind: vVariable, module: path, name: name, variable: mod.Variables[name], call: mod.Call})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
		if mc := mod.ModuleCalls[name]; mc.Module != nil {
			cg.calls[mc.Module.Path.String()] = cg.add(&vertex{kind: vCall, module: path, name: name, call: mc})
		}
	}
	for _, m := range mod.ResourceMaps() {
		for _, key := range slices.Sorted(maps.Keys(m)) {
			r := m[key]
			cg.resources[r.Addr().InModule(path).UniqueKey()] = cg.add(&vertex{kind: vResource, module: path, resource: r})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(mod.Checks)) {
		cg.add(&vertex{kind: vCheck, module: path, name: name, check: mod.Checks[name]})
	}
}

// addOrphans adds the resources of prior state that no module of the
// configuration declares.
func (cg *configGraph) addOrphans(prior *states.State) {
	if prior == nil {
		return
	}
	var orphans []*states.Resource
	for _, rs := range prior.Resources {
		if _, configured := cg.resourceVertex(rs.Addr.Config()); !configured {
			orphans = append(orphans, rs)
		}
	}
	sort.Slice(orphans, func(i, j int) bool {
		return orphans[i].Addr.Less(orphans[j].Addr)
	})
	for _, rs := range orphans {
		cg.add(&vertex{kind: vOrphan, module: rs.Addr.Module.Module(), orphan: rs})
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
