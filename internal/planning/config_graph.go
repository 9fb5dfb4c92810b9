package planning

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/parallel"
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
	// vCall is a module call: it expands the call in every instance of
	// the calling module. Everything in the child waits for it.
	vCall vertexKind = 'M'
	// vVariable is an input variable of a child module, set from the
	// call's argument in every instance of the module.
	vVariable vertexKind = 'V'
	// vCheck is a check block: its assertions, evaluated after everything
	// they refer to.
	vCheck vertexKind = 'C'
)

// vertex is one object of the configuration graph: a provider
// configuration, local, output or resource block of one module (planned in
// every instance of that module), or a resource of prior state the
// configuration no longer has.
type vertex struct {
	kind     vertexKind
	module   addrs.Module
	name     string // local or output name
	provider addrs.AbsProviderConfig
	pcfg     *configs.Provider
	local    *configs.Local
	output   *configs.Output
	resource *configs.Resource
	orphan   *states.Resource
	// call is a vCall's module block (in module, named name); variable
	// a vVariable's declaration (in the child module).
	call     *configs.ModuleCall
	variable *configs.Variable
	check    *configs.Check
}

// String names the vertex as users write it, for cycle reports and DOT.
func (v *vertex) String() string {
	switch v.kind {
	case vProvider:
		return v.provider.String()
	case vLocal:
		return prefixModule(v.module, "local."+v.name)
	case vOutput:
		return prefixModule(v.module, "output."+v.name)
	case vResource:
		return v.resource.Addr().InModule(v.module).String()
	case vOrphan:
		return v.orphan.Addr.String() + " (orphan)"
	case vCall:
		return prefixModule(v.module, "module."+v.name)
	case vVariable:
		return prefixModule(v.module, "var."+v.name)
	case vCheck:
		return prefixModule(v.module, "check."+v.check.Name)
	}
	return "?"
}

func prefixModule(m addrs.Module, s string) string {
	if m.IsRoot() {
		return s
	}
	return m.String() + "." + s
}

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
	refs     [][]*addrs.Reference
	refDiags []diags.Diagnostics
	cycles   diags.Diagnostics
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

// absDeps returns the resource dependencies of vertex v, as state records
// them: addresses with no module instance keys, as Terraform records
// them. The same (shared) slice for every instance.
func (cg *configGraph) absDeps(v *vertex, _ addrs.ModuleInstance) []addrs.AbsResource {
	return cg.resourceDeps[cg.resources[v.resource.Addr().InModule(v.module).UniqueKey()]]
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
		cg.orderScopedData()
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
	for _, m := range []map[string]*configs.Resource{mod.ManagedResources, mod.DataResources} {
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

type vertexRefs struct {
	refs  []*addrs.Reference
	diags diags.Diagnostics
}

// allReferences finds the references of every vertex, in parallel: each
// resource body is analysed on the way (and the analysis kept for
// evaluation), which is most of building the graph of a large
// configuration.
func allReferences(vertices []*vertex, schemas providers.Schemas, prepare preparer) []vertexRefs {
	out := make([]vertexRefs, len(vertices))
	parallel.ForEach(len(vertices), func(i int) {
		out[i] = safeReferences(vertices[i], schemas, prepare)
	})
	return out
}

// safeReferences is vertexReferences with a panic (a bug in the analysis)
// turned into an error about the object, not a crash.
func safeReferences(v *vertex, schemas providers.Schemas, prepare preparer) (out vertexRefs) {
	defer func() {
		if r := recover(); r != nil {
			out = vertexRefs{diags: diags.Diagnostics{diags.Errorf("Internal error analysing the configuration",
				"Finding the references of %s failed: %v. This is a bug in Cairn; please report it with the configuration.", v, r)}}
		}
	}()
	out.refs, out.diags = vertexReferences(v, schemas, prepare)
	return out
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
			more, mds = lang.ReferencesInExpr(c.ErrorMessage)
			refs, ds = append(refs, more...), ds.Append(mds)
		}
		return refs, ds
	case vResource:
		return resourceReferences(v.resource, schemas, prepare)
	case vCall:
		refs, ds := lang.ReferencesInExpr(v.call.Count)
		more, mds := lang.ReferencesInExpr(v.call.ForEach)
		return append(refs, more...), ds.Append(mds)
	case vVariable:
		if arg := v.argument(); arg != nil {
			return lang.ReferencesInExpr(arg.Expr)
		}
	case vCheck:
		return ruleReferences(v.check.Asserts)
	}
	return nil, nil
}

// refModule returns the module in which the vertex's references are
// resolved: a child variable's argument is written in the caller.
func (v *vertex) refModule() addrs.Module {
	if v.kind == vVariable {
		return v.module[:len(v.module)-1]
	}
	return v.module
}

// argument returns the module call's argument setting a vVariable, or nil.
func (v *vertex) argument() *hcl.Attribute {
	if v.call == nil {
		return nil
	}
	return v.call.Arguments[v.name]
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

// connectRefs adds an edge from v, in module m, to each vertex a
// reference names.
func (cg *configGraph) connectRefs(v int, m addrs.Module, refs []*addrs.Reference) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, ref := range refs {
		switch sub := ref.Subject.(type) {
		case addrs.LocalValue:
			if t, ok := cg.locals[localKey(m, sub.Name)]; ok {
				cg.g.Connect(v, t)
			} else {
				ds = ds.Append(diags.At(ref.SourceRange, "Reference to undeclared local value",
					fmt.Sprintf("A local value with the name %q has not been declared.", sub.Name)))
			}
		case addrs.Resource:
			ds = ds.Append(cg.connectResource(v, sub.InModule(m), ref.SourceRange))
			ds = ds.Append(cg.checkScopedRef(v, sub.InModule(m), ref.SourceRange))
		case addrs.ResourceInstance:
			ds = ds.Append(cg.connectResource(v, sub.Resource.InModule(m), ref.SourceRange))
			ds = ds.Append(cg.checkScopedRef(v, sub.Resource.InModule(m), ref.SourceRange))
		case addrs.InputVariable:
			if m.IsRoot() && cg.rootVariables[sub.Name] {
				continue // root variables are set before the walk
			}
			if t, ok := cg.variables[moduleName{m.String(), sub.Name}]; ok {
				cg.g.Connect(v, t)
			} else {
				ds = ds.Append(diags.At(ref.SourceRange, "Reference to undeclared input variable",
					fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", sub.Name, sub.Name)))
			}
		case addrs.ModuleCall:
			ds = ds.Append(cg.connectModuleCall(v, m, sub, "", ref.SourceRange))
		case addrs.ModuleCallOutput:
			ds = ds.Append(cg.connectModuleCall(v, m, sub.Call, sub.Name, ref.SourceRange))
		}
	}
	return ds
}

func (cg *configGraph) connectResource(v int, cr addrs.ConfigResource, rng hcl.Range) diags.Diagnostics {
	t, ok := cg.resourceVertex(cr)
	if !ok {
		r := cr.Resource
		what := "managed resource"
		if r.Mode == addrs.DataResourceMode {
			what = "data resource"
		}
		suggestion := ""
		if r.Mode == addrs.ManagedResourceMode {
			// Leaving out "data." is a common mistake.
			data := r
			data.Mode = addrs.DataResourceMode
			if _, ok := cg.resourceVertex(data.InModule(cr.Module)); ok {
				suggestion = fmt.Sprintf("\n\nDid you mean the data resource %s?", data)
			}
		}
		return diags.Diagnostics{diags.At(rng, "Reference to undeclared resource",
			fmt.Sprintf("A %s %q %q has not been declared in %s.%s", what, r.Type, r.Name, moduleDisplay(cr.Module), suggestion))}
	}
	cg.g.Connect(v, t)
	return nil
}

func (cg *configGraph) connectDependsOn(v int, m addrs.Module, traversals []hcl.Traversal) diags.Diagnostics {
	refs, ds := lang.References(traversals)
	for _, ref := range refs {
		if call, ok := ref.Subject.(addrs.ModuleCall); ok {
			cg.connectWholeModule(v, m.Child(call.Name))
		}
	}
	return ds.Append(cg.connectRefs(v, m, refs))
}

// moduleDisplay names a module as Terraform does in messages.
func moduleDisplay(m addrs.Module) string {
	if m.IsRoot() {
		return "the root module"
	}
	return m.String()
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
	case vCheck:
		return v.check.DeclRange.Ptr()
	}
	return nil
}

// computeResourceDeps records, for each resource vertex, every resource
// it depends on through any path of the graph (locals, variables, module
// calls and outputs, other resources), sorted by address: what Terraform
// records in state. Each vertex's set is merged, in address order, from
// its dependencies' sets once those are built, so the work is linear in
// the sizes of the sets: a 1,000-long chain has half a million entries.
func (cg *configGraph) computeResourceDeps() {
	n := len(cg.vertices)
	rank := cg.resourceRanks()
	sets := make([][]int32, n)
	done := make([]bool, n)
	var visit func(int) []int32
	visit = func(v int) []int32 {
		if done[v] {
			return sets[v]
		}
		var out []int32
		for _, d := range cg.g.Deps(v) {
			sub := visit(d)
			if rank[d] >= 0 {
				sub = mergeByRank(sub, []int32{int32(d)}, rank)
			}
			out = mergeByRank(out, sub, rank)
		}
		sets[v], done[v] = out, true
		return out
	}
	for i, v := range cg.vertices {
		if v.kind != vResource {
			continue
		}
		set := visit(i)
		if len(set) == 0 {
			continue
		}
		deps := make([]addrs.AbsResource, len(set))
		for k, d := range set {
			deps[k] = cg.unkeyedAddr(int(d))
		}
		cg.resourceDeps[i] = deps
	}
}

// mergeByRank merges two vertex lists sorted by rank, dropping repeats.
// When one is empty the other is returned as is (lists are never changed
// after they are built, so sharing is safe).
func mergeByRank(a, b []int32, rank []int32) []int32 {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	}
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ra, rb := rank[a[i]], rank[b[j]]
		switch {
		case ra < rb:
			out = append(out, a[i])
			i++
		case rb < ra:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// resourceRanks returns each resource vertex's position in address order
// (-1 for other vertices).
func (cg *configGraph) resourceRanks() []int32 {
	rank := make([]int32, len(cg.vertices))
	var res []int
	names := make([]string, len(cg.vertices))
	for i, v := range cg.vertices {
		rank[i] = -1
		if v.kind == vResource {
			res = append(res, i)
			names[i] = v.resource.Addr().InModule(v.module).String()
		}
	}
	sort.Slice(res, func(a, b int) bool { return names[res[a]] < names[res[b]] })
	for r, i := range res {
		rank[i] = int32(r)
	}
	return rank
}

// unkeyedAddr is resource vertex i's address as state dependencies record
// it: its module path with no instance keys.
func (cg *configGraph) unkeyedAddr(i int) addrs.AbsResource {
	v := cg.vertices[i]
	return v.resource.Addr().Absolute(v.module.UnkeyedInstance())
}
