package testfiles

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// traversalString writes a reference back as text
// (module.m["k"].terraform_data.a[0]).
func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			switch {
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			case s.Key.Type() == cty.Number:
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return b.String()
}

func parseInstance(t hcl.Traversal) (addrs.AbsResourceInstance, diags.Diagnostics) {
	a, hd := addrs.ParseAbsResourceInstanceStr(traversalString(t))
	return a, atTraversal(t, hd)
}

func parseTarget(t hcl.Traversal) (addrs.Target, diags.Diagnostics) {
	a, hd := addrs.ParseTargetStr(traversalString(t))
	return a, atTraversal(t, hd)
}

// atTraversal places an address's diagnostics at the reference in the
// test file.
func atTraversal(t hcl.Traversal, hd hcl.Diagnostics) diags.Diagnostics {
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	rng := t.SourceRange()
	for i := range ds {
		ds[i].Subject = rng.Ptr()
	}
	return ds
}

// readState reads a state document; empty is an empty state.
func readState(doc []byte) (*states.State, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return states.NewState(), nil
	}
	f, err := statefile.Read(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	return f.State, nil
}

// instancesIn lists the resource instances a state document holds.
func instancesIn(doc []byte) ([]string, error) {
	st, err := readState(doc)
	if err != nil {
		return nil, err
	}
	var out []string
	st.AllInstances(func(addr addrs.AbsResourceInstance, _ *states.Resource, is *states.ResourceInstance) {
		if is.Current != nil || len(is.Deposed) > 0 {
			out = append(out, addr.String())
		}
	})
	return out, nil
}
