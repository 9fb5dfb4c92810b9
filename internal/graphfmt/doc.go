// Package graphfmt writes the graphs `cairn graph` prints, in Graphviz DOT
// or as a Mermaid flowchart. Each graph is built once, by the package that
// knows it (planning for the configuration's dependencies, render for a
// plan's operations), as a Graph: nodes with an id, a label and a shape,
// and edges from each node to what it depends on. The writers know only
// that model, so every graph type gets every format, and a new format is
// one writer.
//
// DOT is the layout terraform graph has always printed (a "root" subgraph,
// "[root] " before each id), byte for byte, so tools that read Terraform's
// graphs read Cairn's. Mermaid is a `flowchart LR` that GitHub and GitLab
// render inline: nodes get short ids (n0, n1, ...) and quoted labels with
// Mermaid's entity escapes, so addresses such as aws_s3_bucket.b["a"]
// survive whatever they hold; DOT's shapes map to Mermaid's (box to
// rectangle, diamond to rhombus, note to the flag shape, ellipse to the
// stadium).
//
// The package formats only: it knows nothing of configurations, plans or
// Terraform's addresses.
//
// Imports:
//
//	deny internal/... # a writer of graphs knows no Terraform concepts; its callers build the graph
package graphfmt
