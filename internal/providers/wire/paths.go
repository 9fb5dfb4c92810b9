package wire

import (
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// Path converts a protocol attribute path to a cty path. A step into a set
// element (ElementKeyValue) has no cty equivalent the engine can follow,
// so the path stops before it and names the set, as Terraform does.
func Path(p *tftypes.AttributePath) cty.Path {
	if p == nil {
		return nil
	}
	steps := p.Steps()
	out := make(cty.Path, 0, len(steps))
	for _, s := range steps {
		switch s := s.(type) {
		case tftypes.AttributeName:
			out = append(out, cty.GetAttrStep{Name: string(s)})
		case tftypes.ElementKeyString:
			out = append(out, cty.IndexStep{Key: cty.StringVal(string(s))})
		case tftypes.ElementKeyInt:
			out = append(out, cty.IndexStep{Key: cty.NumberIntVal(int64(s))})
		default:
			return out
		}
	}
	return out
}

// Paths converts a list of paths, as RequiresReplace carries them; nil
// entries are dropped.
func Paths(in []*tftypes.AttributePath) []cty.Path {
	if len(in) == 0 {
		return nil
	}
	out := make([]cty.Path, 0, len(in))
	for _, p := range in {
		if p != nil {
			out = append(out, Path(p))
		}
	}
	return out
}

// AttributePath converts a cty path to a protocol attribute path, for an
// engine serving its providers over a protocol. An index that is neither a
// string nor a whole number stops the path there.
func AttributePath(p cty.Path) *tftypes.AttributePath {
	out := tftypes.NewAttributePath()
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			out = out.WithAttributeName(s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown() || s.Key.IsNull():
				return out
			case s.Key.Type() == cty.String:
				out = out.WithElementKeyString(s.Key.AsString())
			case s.Key.Type() == cty.Number:
				bf := s.Key.AsBigFloat()
				i, acc := bf.Int64()
				if acc != big.Exact {
					return out
				}
				out = out.WithElementKeyInt(int(i))
			default:
				return out
			}
		}
	}
	return out
}
