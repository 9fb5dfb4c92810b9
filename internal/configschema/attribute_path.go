package configschema

import "github.com/zclconf/go-cty/cty"

// AttributeByPath returns the attribute a path into an object of this
// block names, through nested blocks and nested attribute types (index
// steps, which pick an element, are passed over); nil when the path ends
// at a block, goes past an attribute without a nested type, or names
// nothing the schema has. It is how a static check (ignore_changes) learns
// whether a configured path is an argument or decided by the provider.
func (b *Block) AttributeByPath(path cty.Path) *Attribute {
	attrs, blocks := b.Attributes, b.BlockTypes
	for i, step := range path {
		name, ok := step.(cty.GetAttrStep)
		if !ok {
			continue
		}
		if a := attrs[name.Name]; a != nil {
			rest := path[i+1:]
			if !hasGetAttr(rest) {
				return a
			}
			if a.NestedType == nil {
				return nil
			}
			attrs, blocks = a.NestedType.Attributes, nil
			continue
		}
		nb := blocks[name.Name]
		if nb == nil {
			return nil
		}
		attrs, blocks = nb.Block.Attributes, nb.Block.BlockTypes
	}
	return nil
}

// hasGetAttr reports whether a path has an attribute step.
func hasGetAttr(p cty.Path) bool {
	for _, step := range p {
		if _, ok := step.(cty.GetAttrStep); ok {
			return true
		}
	}
	return false
}
