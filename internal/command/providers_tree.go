package command

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/configs"
)

// runProviders implements "cairn providers": the providers each module
// of the configuration requires, as a tree in Terraform's format, then
// those the state's resources belong to. Terraform lists each level from
// Go maps, in no fixed order; Cairn sorts providers by address and
// modules by name.
func runProviders(m *Meta, args []string) int {
	fs := newFlagSet("providers", m.Stderr)
	noColorFlag(fs, m)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "Did you mean to use a subcommand, such as cairn providers lock?")
	}
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return m.fail(ds)
	}
	var tree strings.Builder
	tree.WriteString(".\n")
	if tds := writeRequirementsTree(&tree, cfg, ""); tds != nil {
		return m.fail(ds.Append(tds))
	}
	fmt.Fprintf(m.Stdout, "\nProviders required by configuration:\n%s\n", tree.String())
	h, sds := m.openState(cfg, false, 0, "OperationTypeProviders")
	if ds = ds.Append(sds); ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	if ps := h.state().Providers(); len(ps) > 0 {
		fmt.Fprint(m.Stdout, "Providers required by state:\n\n")
		for _, p := range ps {
			fmt.Fprintf(m.Stdout, "    provider[%s]\n\n", p)
		}
	}
	m.showDiags(ds)
	return 0
}

// writeRequirementsTree writes mod's requirements ("provider[ADDR]
// CONSTRAINTS"), then a "module.NAME" branch per call, with the box
// drawing of the treeprint package Terraform uses; indent is the prefix
// of this level's lines.
func writeRequirementsTree(w io.Writer, mod *configs.Module, indent string) error {
	type node struct {
		label string
		child *configs.Module
	}
	var nodes []node
	for _, r := range mod.OwnProviderRequirements() {
		cs, ds := requirementConstraints(r)
		if ds.HasErrors() {
			return ds.Err()
		}
		label := "provider[" + r.Provider.String() + "]"
		if len(cs) > 0 {
			label += " " + cs.String()
		}
		nodes = append(nodes, node{label: label})
	}
	for _, name := range slices.Sorted(maps.Keys(mod.ModuleCalls)) {
		nodes = append(nodes, node{label: "module." + name, child: mod.ModuleCalls[name].Module})
	}
	for i, n := range nodes {
		branch, next := "├── ", "│   "
		if i == len(nodes)-1 {
			branch, next = "└── ", "    "
		}
		fmt.Fprintf(w, "%s%s%s\n", indent, branch, n.label)
		if n.child != nil {
			if err := writeRequirementsTree(w, n.child, indent+next); err != nil {
				return err
			}
		}
	}
	return nil
}
