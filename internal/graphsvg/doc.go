// Package graphsvg draws a directed graph (the operation graph of a plan,
// or the dependencies of a state) as a layered drawing in SVG, for the
// HTML explorer of `cairn show -html`. The layout is computed here, in
// Go, as a layered (Sugiyama) drawing: cycles broken by reversing the
// back edges of a depth-first search, columns by longest path (a node
// that waits for nothing moved next to what waits for it), one virtual
// node per column a long edge crosses, crossings reduced by barycenter
// sweeps, and y positions pulled toward each node's neighbours without
// reordering or overlap. The SVG is written here too, so the markup is
// exactly the one the page's script and style sheet rely on (the
// contract below). The package holds no state: Draw may run from
// several goroutines at once.
//
// Layout: ranks run left to right. Everything an edge's From waits for
// (its To) is placed to the left of it, so a plan reads in the order apply
// runs it; nodes of one rank stack vertically, which keeps long resource
// addresses readable where a top-to-bottom layout would set them side by
// side. Edges are drawn from To to From, the arrowhead at the node that
// waits. An edge implied by a longer path is not drawn (a transitive
// reduction, as `terraform graph` draws): what a node waits for, directly
// or not, is unchanged, a provider's edge to each of its resources no
// longer crosses the whole drawing, and the layout, whose work grows with
// the columns each edge spans, stays fast. An edge that closes a cycle
// (a state's dependencies or a fold can have one) is drawn right to
// left, its arrowhead still at the node that waits.
//
// Folding: a graph with more nodes than Options.MaxNodes is drawn folded.
// Nodes sharing a Group become one drawn node; if there are still too
// many, groups fold by their module path (the part of the Group before its
// last resource address, "(root)" for the root module), then by that path
// without instance keys, then by top-level module calls, and finally the
// largest folds are kept and the rest drawn as one "(other)" node. At the
// first level that fits, folds are split back into the finer keys of the
// level before (modules into resources, those that split into fewest
// first) while the count stays within MaxNodes. A drawing left with more
// than three edges per allowed node goes on to the next fold too. So a
// graph of any size draws at most MaxNodes nodes, and Drawing.Members says
// which nodes each drawn node stands for.
//
// SVG contract (what the explorer's script and CSS use):
//
//   - The root is one <svg class="graphsvg"> with xmlns, viewBox, width and
//     height, and no script, no external reference and no inline colour.
//     A <style> block gives readable defaults inside :where(.graphsvg), so
//     any rule of the page overrides it.
//   - Each drawn node is <g class="node k-KIND" id="node-ID" data-node="ID">
//     holding a <title> with the full label (and, folded, the member
//     count), a <rect> and a <text>. KIND is one of create, update,
//     replace, delete, read, noop, provider, output or other (an unknown
//     Kind draws as other). A label longer than 48 characters is shortened
//     in the middle with "…". A node standing for several nodes has ID
//     "g:" followed by its fold key, the label "KEY × COUNT", and the kind
//     its members share (members of kind other aside), or "other" when
//     they differ; a fold of one node draws that node as it is.
//   - Each edge is <g class="edge" data-from="ID" data-to="ID"> holding one
//     <path> whose marker-end is the arrowhead <marker id="graphsvg-arrow">
//     in <defs>. Edges between folded nodes are drawn once, edges within
//     one drawn node and edges implied by others are not drawn.
//   - The <g> of all edges (class "edges") comes before that of all nodes
//     (class "nodes"), each sorted by id. Text and attribute values are
//     XML-escaped (an id may hold quotes, brackets or spaces: look nodes up
//     by getElementById or by data-node, with CSS.escape in selectors).
//     The same graph always gives the same bytes.
//   - Sizes are in SVG user units; box widths assume the 12px monospace
//     font of the default style.
//
// Only the explorer imports this package; the provider binaries have no
// use for it and may not link it (see docs/design/graph-drawing.md for
// why the layout is not Graphviz's).
//
// Imports:
//
//	deny internal/... # a drawing of nodes and edges: it knows no plans, states or addresses, only strings
//	allow internal/graph # the cycles of a folded graph
package graphsvg
