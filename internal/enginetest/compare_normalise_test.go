package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// compareUUID matches the random ids terraform_data gives its objects.
var compareUUID = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// normaliser rewrites one run's show -json documents so that two runs
// compare: each random id becomes a placeholder named for the address
// whose object first had it ("ID(terraform_data.a)"), so a value that
// copies another resource's id compares too; deposed keys become D1,
// D2, ... in order of appearance. One normaliser serves one run, so an
// id keeps its name from step to step. The values of the scenario's
// random attributes (random) are named the same way
// ("RANDOM(random_pet.p.id)") and replaced wherever they appear, inside
// other strings too.
type normaliser struct {
	ids      map[string]string
	taken    map[string]int
	deposed  map[string]string
	random   map[string][]string
	literals []string
	// checkStatusOnly compares a check's statuses without its problems'
	// messages: OpenTofu 1.12.6 words a failed terraform_remote_state
	// read as two problems ("2 problems: ... Unable to read remote
	// state") where Terraform 1.5.7, and Cairn, give one.
	checkStatusOnly bool
}

func newNormaliser() *normaliser {
	return &normaliser{ids: map[string]string{}, taken: map[string]int{}, deposed: map[string]string{}}
}

// decodeTerraformJSON reads a show -json document with
// hashicorp/terraform-json, as tools do (its decoders check the format
// version too): every document either tool writes must read.
func decodeTerraformJSON(raw []byte, isPlan bool) error {
	var err error
	if isPlan {
		var p tfjson.Plan
		err = p.UnmarshalJSON(raw)
	} else {
		var s tfjson.State
		err = s.UnmarshalJSON(raw)
	}
	if err != nil {
		return fmt.Errorf("terraform-json cannot read the document: %w", err)
	}
	return nil
}

func decodeJSON(raw []byte) (any, error) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not JSON: %w\n%s", err, raw)
	}
	return doc, nil
}

// document keeps the compared parts of a show -json document: of a plan
// (isPlan), the resource and output changes, the configuration and
// whether it errored or is applyable; of a state, the values.
func (n *normaliser) document(raw []byte, isPlan bool) (any, error) {
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, err
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a JSON object: %s", raw)
	}
	var kept map[string]any
	if isPlan {
		kept = n.plan(m)
	} else {
		kept = map[string]any{"values": n.values(asMap(m["values"]))}
	}
	return n.replaceIDs(kept), nil
}

func (n *normaliser) plan(m map[string]any) map[string]any {
	kept := map[string]any{}
	for _, k := range []string{"errored", "applyable"} {
		if v, ok := m[k]; ok {
			kept[k] = v
		}
	}
	// OpenTofu (like Terraform from 1.6) always writes "errored";
	// Terraform 1.5.7 only when true. Absent and false mean the same.
	if kept["errored"] == false {
		delete(kept, "errored")
	}
	var changes []any
	for _, rc := range asList(m["resource_changes"]) {
		rc := asMap(rc)
		c := pick(rc, "address", "previous_address", "module_address", "mode", "type", "name", "index", "action_reason")
		if d, ok := rc["deposed"].(string); ok {
			c["deposed"] = n.deposedKey(d)
		}
		ch := asMap(rc["change"])
		c["change"] = pick(ch, "actions", "importing", "generated_config", "before", "after", "after_unknown", "before_sensitive", "after_sensitive")
		addr, _ := rc["address"].(string)
		n.nameID(addr, asMap(ch["before"])["id"])
		n.nameID(addr, asMap(ch["after"])["id"])
		n.nameRandom(addr, rc["type"], asMap(ch["before"]))
		n.nameRandom(addr, rc["type"], asMap(ch["after"]))
		changes = append(changes, c)
	}
	sortByAddress(changes)
	kept["resource_changes"] = changes
	outputs := map[string]any{}
	for name, oc := range asMap(m["output_changes"]) {
		outputs[name] = pick(asMap(oc), "actions", "before", "after", "after_unknown", "before_sensitive", "after_sensitive")
	}
	kept["output_changes"] = outputs
	if c, ok := m["configuration"]; ok {
		kept["configuration"] = configuration(asMap(c))
	}
	if cs := checkBlocks(m["checks"], n.checkStatusOnly); len(cs) > 0 {
		kept["checks"] = cs
	}
	return kept
}

// checkBlocks keeps the check blocks of a plan's "checks" (status pass,
// fail or unknown, per instance with its problems), in address order:
// whether an assertion was decided at plan, and on what, is what a
// check's scoped data source read at plan changes. Resources and outputs
// with conditions are left out; Cairn does not list them yet
// (docs/guarantees.md). With statusOnly, problems are left out.
func checkBlocks(checks any, statusOnly bool) []any {
	var out []any
	for _, c := range asList(checks) {
		if asMap(asMap(c)["address"])["kind"] != "check" {
			continue
		}
		if statusOnly {
			c = dropProblems(asMap(c))
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return fmt.Sprint(asMap(asMap(out[i])["address"])["to_display"]) < fmt.Sprint(asMap(asMap(out[j])["address"])["to_display"])
	})
	return out
}

// configuration normalises a plan's "configuration" for what differs by
// tool alone: OpenTofu names the providers it installs from its own
// registry (registry.opentofu.org/hashicorp/random), where Terraform and
// Cairn name registry.terraform.io, and it describes each variable's
// type and whether it is required (fields Terraform 1.5.7's format does
// not have), so only a variable's default, description and sensitive
// are kept. Everything else compares as written.
func configuration(c map[string]any) map[string]any {
	out := maps.Clone(c)
	if pcs := asMap(c["provider_config"]); pcs != nil {
		norm := make(map[string]any, len(pcs))
		for k, pc := range pcs {
			pc := maps.Clone(asMap(pc))
			if fn, ok := pc["full_name"].(string); ok {
				pc["full_name"] = strings.Replace(fn, "registry.opentofu.org/", "registry.terraform.io/", 1)
			}
			norm[k] = pc
		}
		out["provider_config"] = norm
	}
	if root, ok := c["root_module"]; ok {
		out["root_module"] = configModule(asMap(root))
	}
	return out
}

// configModule keeps a configuration module's variables' default,
// description, sensitive, ephemeral and deprecated (see configuration), in it and the modules
// it calls.
func configModule(m map[string]any) map[string]any {
	out := maps.Clone(m)
	if vars := asMap(m["variables"]); vars != nil {
		norm := make(map[string]any, len(vars))
		for name, v := range vars {
			norm[name] = pick(asMap(v), "default", "description", "sensitive", "ephemeral", "deprecated")
		}
		out["variables"] = norm
	}
	if calls := asMap(m["module_calls"]); calls != nil {
		norm := make(map[string]any, len(calls))
		for name, mc := range calls {
			mc := maps.Clone(asMap(mc))
			if mod, ok := mc["module"]; ok {
				mc["module"] = configModule(asMap(mod))
			}
			norm[name] = mc
		}
		out["module_calls"] = norm
	}
	return out
}

// values keeps a state's outputs and modules, resources sorted by
// address.
func (n *normaliser) values(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	return map[string]any{"outputs": v["outputs"], "root_module": n.module(asMap(v["root_module"]))}
}

func (n *normaliser) module(m map[string]any) map[string]any {
	kept := pick(m, "address")
	var resources []any
	for _, r := range asList(m["resources"]) {
		r := asMap(r)
		c := pick(r, "address", "mode", "type", "name", "index", "values", "sensitive_values", "depends_on", "tainted")
		if d, ok := r["deposed"].(string); ok {
			c["deposed"] = n.deposedKey(d)
		}
		addr, _ := r["address"].(string)
		n.nameID(addr, asMap(r["values"])["id"])
		n.nameRandom(addr, r["type"], asMap(r["values"]))
		resources = append(resources, c)
	}
	sortByAddress(resources)
	kept["resources"] = resources
	var children []any
	for _, c := range asList(m["child_modules"]) {
		children = append(children, n.module(asMap(c)))
	}
	sortByAddress(children)
	kept["child_modules"] = children
	return kept
}

// nameID gives id, if it is a random id not seen before, a placeholder
// named for addr ("#2" and on when addr's object was replaced).
func (n *normaliser) nameID(addr string, id any) {
	s, ok := id.(string)
	if !ok || !compareUUID.MatchString(s) || n.ids[s] != "" {
		return
	}
	name := "ID(" + addr + ")"
	n.taken[name]++
	if k := n.taken[name]; k > 1 {
		name = fmt.Sprintf("%s#%d", name, k)
	}
	n.ids[s] = name
}

// nameRandom names the values of typ's random attributes in vals, as
// nameID names ids.
func (n *normaliser) nameRandom(addr string, typ any, vals map[string]any) {
	t, _ := typ.(string)
	for _, attr := range n.random[t] {
		s, ok := vals[attr].(string)
		if !ok || s == "" || n.ids[s] != "" {
			continue
		}
		name := "RANDOM(" + addr + "." + attr + ")"
		n.taken[name]++
		if k := n.taken[name]; k > 1 {
			name = fmt.Sprintf("%s#%d", name, k)
		}
		n.ids[s] = name
		n.literals = append(n.literals, s)
		// Longest first, so a value inside another is not replaced in it.
		sort.SliceStable(n.literals, func(i, j int) bool { return len(n.literals[i]) > len(n.literals[j]) })
	}
}

func (n *normaliser) deposedKey(d string) string {
	if n.deposed[d] == "" {
		n.deposed[d] = fmt.Sprintf("D%d", len(n.deposed)+1)
	}
	return n.deposed[d]
}

// replaceIDs rewrites every random id in v, walking maps in key order so
// that ids not named by nameID get the same "ID#N" in both runs.
func (n *normaliser) replaceIDs(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out[k] = n.replaceIDs(v[k])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = n.replaceIDs(v[i])
		}
		return out
	case string:
		v = compareUUID.ReplaceAllStringFunc(v, func(id string) string {
			if n.ids[id] == "" {
				n.ids[id] = fmt.Sprintf("ID#%d", len(n.ids)+1)
			}
			return n.ids[id]
		})
		for _, lit := range n.literals {
			v = strings.ReplaceAll(v, lit, n.ids[lit])
		}
		return v
	}
	return v
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// pick copies the keys of m that are present; absent and present-but-null
// differ in show -json, so both are kept as they are.
func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// sortByAddress orders resources, changes and modules by address, then
// deposed key: their order in show -json is not part of the contract.
func sortByAddress(l []any) {
	key := func(v any) string {
		m := asMap(v)
		a, _ := m["address"].(string)
		d, _ := m["deposed"].(string)
		return a + "\x00" + d
	}
	sort.SliceStable(l, func(i, j int) bool { return key(l[i]) < key(l[j]) })
}

// dropProblems returns check result c without its instances' problems.
func dropProblems(c map[string]any) map[string]any {
	out := maps.Clone(c)
	var insts []any
	for _, in := range asList(c["instances"]) {
		in := maps.Clone(asMap(in))
		delete(in, "problems")
		insts = append(insts, in)
	}
	out["instances"] = insts
	return out
}
