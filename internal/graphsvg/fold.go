package graphsvg

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// drawnNode is one node of the drawing: an input node, or a fold of
// several.
type drawnNode struct {
	id    string
	label string // the full text, in the node's <title>
	text  string // what the box shows: label, shortened (see shorten)
	kind  string
	count int // members; more than 1 for a fold
	// members are the input node IDs this node stands for, sorted.
	members []string
}

// drawnGraph is what is laid out and written.
type drawnGraph struct {
	nodes  []drawnNode // sorted by id
	edges  []Edge      // between drawn ids, sorted, without repeats
	folded bool
}

func (d *drawnGraph) members() map[string][]string {
	m := make(map[string][]string, len(d.nodes))
	for _, n := range d.nodes {
		m[n.id] = n.members
	}
	return m
}

// index maps each drawn node's id to its index in nodes.
func (d *drawnGraph) index() map[string]int {
	m := make(map[string]int, len(d.nodes))
	for i, n := range d.nodes {
		m[n.id] = i
	}
	return m
}

// rootModule is the fold key of everything in the root module.
const rootModule = "(root)"

// otherFold is the fold key of what is left when even the coarsest fold
// has too many keys.
const otherFold = "(other)"

// edgesPerNode bounds the edges of a drawing, after reduce, at
// edgesPerNode × the node limit: the layout's work grows with edges more
// than with nodes (virtual nodes, crossing reduction), and so does the
// tangle a reader faces, so a graph over it is folded one level further.
const edgesPerNode = 3

// fold returns the drawing of nodes and edges, reduced, with at most
// limit nodes: the graph itself when it is small enough, else the first
// fold whose keys number at most limit (see foldKey), else the limit-1
// largest keys of the coarsest fold and one otherFold node for the rest.
// A drawing with more than edgesPerNode × limit edges goes on to the next
// fold.
func fold(nodes []Node, edges []Edge, limit int) *drawnGraph {
	if len(nodes) <= limit {
		if d := identity(nodes, edges); reducedFits(d, limit) {
			return d
		}
	}
	var keys map[string]string // group → fold key
	for level := range foldLevels {
		keys = foldKeys(nodes, level)
		if distinct(keys) > limit {
			continue
		}
		if level > 0 {
			if d := foldBy(nodes, edges, refine(nodes, keys, foldKeys(nodes, level-1), limit)); reducedFits(d, limit) {
				return d
			}
		}
		if d := foldBy(nodes, edges, keys); reducedFits(d, limit) {
			return d
		}
	}
	d := foldBy(nodes, edges, keepLargest(nodes, keys, limit-1))
	reduce(d)
	return d
}

// refine splits folds of coarse back into their keys in fine while the
// drawing stays within limit nodes, those that split into fewest first
// (then by key), so that a graph just past a level's limit is not drawn
// as a handful of modules: each fold drawn is a module or a resource.
func refine(nodes []Node, coarse, fine map[string]string, limit int) map[string]string {
	parts := map[string]map[string]bool{} // coarse key → its fine keys
	for g, k := range coarse {
		if parts[k] == nil {
			parts[k] = map[string]bool{}
		}
		parts[k][fine[g]] = true
	}
	order := make([]string, 0, len(parts))
	for k := range parts {
		order = append(order, k)
	}
	sort.Slice(order, func(i, j int) bool {
		if a, b := len(parts[order[i]]), len(parts[order[j]]); a != b {
			return a < b
		}
		return order[i] < order[j]
	})
	budget, split := limit-len(parts), map[string]bool{}
	for _, k := range order {
		if extra := len(parts[k]) - 1; extra <= budget {
			split[k], budget = true, budget-extra
		}
	}
	out := make(map[string]string, len(coarse))
	for g, k := range coarse {
		if split[k] {
			k = fine[g]
		}
		out[g] = k
	}
	return out
}

// reducedFits reduces d's edges and says whether they are few enough.
func reducedFits(d *drawnGraph, limit int) bool {
	reduce(d)
	return len(d.edges) <= edgesPerNode*limit
}

func identity(nodes []Node, edges []Edge) *drawnGraph {
	d := &drawnGraph{nodes: make([]drawnNode, len(nodes)), edges: edges}
	for i, n := range nodes {
		d.nodes[i] = single(n)
	}
	return d
}

func single(n Node) drawnNode {
	label := n.Label
	if label == "" {
		label = n.ID
	}
	return drawnNode{
		id: n.ID, label: label, text: shorten(label, maxLabel),
		kind: kindClass(n.Kind), count: 1, members: []string{n.ID},
	}
}

// group is what a node folds by first.
func group(n Node) string {
	switch {
	case n.Group != "":
		return n.Group
	case n.Label != "":
		return n.Label
	}
	return n.ID
}

// foldLevels is the number of levels foldKey knows.
const foldLevels = 4

// foldKey is the key a group folds into at level; each level is coarser
// than the one before: the group itself, its module path, its module
// path without instance keys, its top-level module call.
func foldKey(level int, group string) string {
	switch level {
	case 0:
		return group
	case 1:
		return modulePrefix(group, -1, true)
	case 2:
		return modulePrefix(group, -1, false)
	}
	return modulePrefix(group, 1, false)
}

// foldKeys maps every group of nodes to its key at level.
func foldKeys(nodes []Node, level int) map[string]string {
	keys := make(map[string]string)
	for _, n := range nodes {
		g := group(n)
		if _, ok := keys[g]; !ok {
			keys[g] = foldKey(level, g)
		}
	}
	return keys
}

// distinct counts the drawn nodes folding by keys gives.
func distinct(keys map[string]string) int {
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		seen[k] = true
	}
	return len(seen)
}

// keepLargest maps the keep keys with most nodes (ties by key) to
// themselves and every other key to otherFold.
func keepLargest(nodes []Node, keys map[string]string, keep int) map[string]string {
	size := map[string]int{}
	for _, n := range nodes {
		size[keys[group(n)]]++
	}
	order := make([]string, 0, len(size))
	for k := range size {
		order = append(order, k)
	}
	sort.Slice(order, func(i, j int) bool {
		if size[order[i]] != size[order[j]] {
			return size[order[i]] > size[order[j]]
		}
		return order[i] < order[j]
	})
	kept := map[string]bool{}
	for _, k := range order[:min(keep, len(order))] {
		kept[k] = true
	}
	out := make(map[string]string, len(keys))
	for g, k := range keys {
		if !kept[k] {
			k = otherFold
		}
		out[g] = k
	}
	return out
}

// foldBy draws one node per key (the node itself where a key has one
// member) and the edges between them once each.
func foldBy(nodes []Node, edges []Edge, keys map[string]string) *drawnGraph {
	byKey := map[string][]Node{}
	for _, n := range nodes { // sorted by ID, so members are too
		k := keys[group(n)]
		byKey[k] = append(byKey[k], n)
	}
	d := &drawnGraph{folded: true, nodes: make([]drawnNode, 0, len(byKey))}
	drawnID := make(map[string]string, len(nodes))
	for k, members := range byKey {
		dn := foldNode(k, members)
		for _, m := range members {
			drawnID[m.ID] = dn.id
		}
		d.nodes = append(d.nodes, dn)
	}
	sort.Slice(d.nodes, func(i, j int) bool { return d.nodes[i].id < d.nodes[j].id })
	d.edges = make([]Edge, 0, len(edges))
	for _, e := range edges {
		f, t := drawnID[e.From], drawnID[e.To]
		if f != t {
			d.edges = append(d.edges, Edge{From: f, To: t})
		}
	}
	d.edges = sortEdges(d.edges)
	return d
}

// foldNode is the drawn node of one fold key: the member itself when it
// is alone, else "g:"+key labelled with the key and the count.
func foldNode(key string, members []Node) drawnNode {
	if len(members) == 1 {
		return single(members[0])
	}
	count := " × " + strconv.Itoa(len(members))
	dn := drawnNode{
		id:      "g:" + key,
		label:   key + count,
		text:    shorten(key, maxLabel-utf8.RuneCountInString(count)) + count,
		count:   len(members),
		members: make([]string, len(members)),
	}
	for i, m := range members {
		dn.members[i] = m.ID
		dn.kind = foldKind(dn.kind, kindClass(m.Kind))
	}
	if dn.kind == "" {
		dn.kind = "other"
	}
	return dn
}

// foldKind is the kind of a fold so far (kind, "" for none yet) with one
// more member's. A member of kind other (bookkeeping, such as a
// resource's expansion folded with its instances) leaves the kind its
// fellows share: 800 creates and their expansion still draw as creates.
func foldKind(kind, member string) string {
	switch {
	case member == "other" || kind == member:
		return kind
	case kind == "":
		return member
	}
	return "other"
}

// modulePrefix is the module path a group address starts with:
// "module.a.module.b" for "module.a.module.b.aws_x.y", rootModule for
// "aws_x.y" or anything that does not start with "module.". depth < 0
// keeps every module step, else at most depth; withKeys false drops the
// instance keys (`module.a["k"]` → module.a).
func modulePrefix(group string, depth int, withKeys bool) string {
	steps := splitSteps(group)
	var mods []string
	for i := 0; i+1 < len(steps) && steps[i] == "module"; i += 2 {
		if depth >= 0 && len(mods) == depth {
			break
		}
		name := steps[i+1]
		if !withKeys {
			name, _, _ = strings.Cut(name, "[")
		}
		mods = append(mods, "module."+name)
	}
	if len(mods) == 0 {
		return rootModule
	}
	return strings.Join(mods, ".")
}

// splitSteps splits an address at the dots outside brackets and quotes:
// `module.a["x.y"].aws_b.c` → module, a["x.y"], aws_b, c.
func splitSteps(addr string) []string {
	var steps []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(addr); i++ {
		switch c := addr[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '.' && depth == 0:
			steps = append(steps, addr[start:i])
			start = i + 1
		}
	}
	return append(steps, addr[start:])
}

// kindClass is kind when it is one the contract names, else "other", so
// a class attribute never carries an unexpected token.
func kindClass(kind string) string {
	switch kind {
	case "create", "update", "replace", "delete", "read", "noop", "provider", "output":
		return kind
	}
	return "other"
}
