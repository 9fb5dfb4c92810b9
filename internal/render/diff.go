package render

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// diffKind says how a diff node is printed.
type diffKind byte

const (
	// kindPrimitive is a string, number or bool (or a JSON null).
	kindPrimitive diffKind = iota
	// kindObject is an object: attributes by name, keys unquoted.
	kindObject
	// kindMap is a map: elements by key, keys quoted.
	kindMap
	// kindList is a list or tuple: elements in order.
	kindList
	// kindSet is a set: elements in no particular order.
	kindSet
	// kindBlock is a resource body or nested block: attributes, then
	// nested blocks.
	kindBlock
	// kindSensitive hides a value: "(sensitive value)".
	kindSensitive
	// kindSensitiveBlock hides a nested block's contents.
	kindSensitiveBlock
	// kindUnknown is a value known only after apply, with the old value
	// (inner) when there was one.
	kindUnknown
	// kindWriteOnly is a write-only attribute (protocol 6.8), whose value
	// no plan holds: "(write-only attribute)", with the block's action.
	kindWriteOnly
	// kindTypeChange is a value whose JSON kind changes: inner before,
	// other after.
	kindTypeChange
)

// diff is one node of the diff tree of a change: what happens to one value
// and how to print it. The differ (diff_*.go) builds the tree from a change
// and the schema; the printer (print_*.go) writes it.
type diff struct {
	kind    diffKind
	action  plans.Action
	replace bool

	// kindPrimitive: the values and their type (cty.String, cty.Number,
	// cty.Bool, or cty.NilType for a JSON null).
	ty            cty.Type
	before, after cty.Value

	// kindObject, kindMap and kindBlock attributes, sorted by name.
	entries []entry
	// kindList and kindSet elements.
	elems []*diff
	// kindBlock nested blocks, sorted by block type name.
	blocks []blockGroup

	// kindSensitive, kindSensitiveBlock, kindUnknown (may be nil) and
	// kindTypeChange (before side).
	inner *diff
	// kindTypeChange after side.
	other *diff
	// kindSensitive and kindSensitiveBlock: which sides were sensitive.
	beforeSensitive, afterSensitive bool

	// nested marks the variants used for nested attributes (protocol v6
	// nested types), which print deletions and forced replacement
	// differently from plain collection types.
	nested bool
}

// entry is one named child of an object, map or block.
type entry struct {
	name string
	d    *diff
}

// blockGroup is every block of one nested block type.
type blockGroup struct {
	name string
	// items are the blocks; their names are the map keys of a keyed
	// (NestingMap) block type and empty otherwise.
	items []entry
	keyed bool
	// replace marks every block of the type as forcing replacement;
	// beforeSensitive and afterSensitive hide their contents.
	replace                         bool
	beforeSensitive, afterSensitive bool
}

// sortEntries orders entries by name, as Terraform prints them.
func sortEntries(es []entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].name < es[j].name })
}

// combine folds a child's action into its parent's: any difference between
// children makes the parent an update.
func combine(cur, next plans.Action) plans.Action {
	if next == plans.NoOp || cur == next {
		return cur
	}
	return plans.Update
}

// sortGroups orders block groups by block type name.
func sortGroups(gs []blockGroup) {
	sort.Slice(gs, func(i, j int) bool { return gs[i].name < gs[j].name })
}
