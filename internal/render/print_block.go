package render

import (
	"strings"

	"github.com/cairn-iac/cairn/internal/plans"
)

// printBlock writes a resource body or nested block: its attributes, then
// each nested block, a blank line before the first block of each type.
func (pr *printer) printBlock(w *strings.Builder, d *diff, ind int, o printOpts) {
	if len(d.entries) == 0 && len(d.blocks) == 0 {
		w.WriteString("{}")
		w.WriteString(pr.forcesReplacement(d.replace, o))
		return
	}
	w.WriteString("{")
	w.WriteString(pr.forcesReplacement(d.replace, o))
	w.WriteByte('\n')
	hidden := pr.writeAttrs(w, d.entries, ind, o, o.clone())
	pr.writeHidden(w, "attribute", hidden, ind, o)

	hiddenBlocks := 0
	for _, g := range d.blocks {
		first := true
		for _, it := range g.items {
			bd := sensitiveGroupItem(g, it.d)
			if bd.action == plans.NoOp && !o.showUnchanged {
				hiddenBlocks++
				continue
			}
			if first && len(d.entries) > 0 {
				w.WriteByte('\n')
			}
			first = false
			bo := o.clone()
			bo.forceReplace = g.replace
			pr.writeWarnings(w, bd, ind+1)
			w.WriteString(indent(ind + 1))
			w.WriteString(pr.symbol(bd.action, bo))
			w.WriteString(attrName(g.name))
			if g.keyed {
				w.WriteString(" ")
				w.WriteString(quote(it.name))
			}
			w.WriteString(" ")
			pr.print(w, bd, ind+1, bo)
			w.WriteByte('\n')
		}
	}
	if hiddenBlocks > 0 {
		w.WriteByte('\n')
		w.WriteString(indent(ind + 1))
		w.WriteString(pr.symbol(plans.NoOp, o))
		w.WriteString(pr.unchanged("block", hiddenBlocks))
		w.WriteByte('\n')
	}
	w.WriteString(indent(ind))
	w.WriteString(pr.symbol(plans.NoOp, o))
	w.WriteString("}")
}

// sensitiveGroupItem hides a block whose whole block type is sensitive.
func sensitiveGroupItem(g blockGroup, d *diff) *diff {
	creating := d.action == plans.Create && g.afterSensitive
	deleting := d.action == plans.Delete && g.beforeSensitive
	modifying := (d.action == plans.Update || d.action == plans.NoOp) && (g.afterSensitive || g.beforeSensitive)
	if !creating && !deleting && !modifying {
		return d
	}
	act := d.action
	if act == plans.NoOp && g.beforeSensitive != g.afterSensitive {
		act = plans.Update
	}
	return &diff{kind: kindSensitiveBlock, action: act, replace: d.replace, inner: d,
		beforeSensitive: g.beforeSensitive, afterSensitive: g.afterSensitive}
}

// printSensitiveBlock writes a block whose contents are hidden.
func (pr *printer) printSensitiveBlock(w *strings.Builder, d *diff, ind int, o printOpts) {
	prefix := indent(ind) + pr.symbol(plans.NoOp, o)
	w.WriteString("{")
	w.WriteString(pr.forcesReplacement(d.replace, o))
	w.WriteByte('\n')
	w.WriteString(prefix)
	w.WriteString("  # At least one attribute in this block is (or was) sensitive,\n")
	w.WriteString(prefix)
	w.WriteString("  # so its contents will not be displayed.\n")
	w.WriteString(prefix)
	w.WriteString("}")
}
