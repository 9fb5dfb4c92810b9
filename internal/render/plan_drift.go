package render

import (
	"bufio"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// driftChanges returns the changes made outside of Terraform: every object
// of the previous run's state that refresh found different (an update) or
// gone (a delete), in address order. Only managed objects count. A plan without both states has none.
//
// Objects stored under another schema version than the provider's current
// one are skipped: their old and new values cannot be compared.
func driftChanges(p *plans.Plan, schemas providers.Schemas) ([]*plans.ResourceInstanceChange, error) {
	if p.PrevRunState == nil || p.PriorState == nil {
		return nil, nil
	}
	var out []*plans.ResourceInstanceChange
	var err error
	prevRunAddr := p.PrevRunAddrs()
	// Every object is looked at, but only the few that drifted are sorted.
	forEachInstance(p.PrevRunState, func(addr addrs.AbsResourceInstance, rs *states.Resource, is *states.ResourceInstance) {
		// Data sources are read again every run; Terraform reports only
		// managed objects as changed outside of it.
		if err != nil || addr.Resource.Resource.Mode == addrs.DataResourceMode {
			return
		}
		now := p.PriorState.ResourceInstance(addr)
		objs := []struct {
			key  addrs.DeposedKey
			prev *states.ObjectSrc
		}{{addrs.NotDeposed, is.Current}}
		for _, k := range is.SortedDeposedKeys() {
			objs = append(objs, struct {
				key  addrs.DeposedKey
				prev *states.ObjectSrc
			}{k, is.Deposed[k]})
		}
		for _, o := range objs {
			if o.prev == nil {
				continue
			}
			var cur *states.ObjectSrc
			if now != nil {
				cur = objectOf(now, o.key)
			}
			var c *plans.ResourceInstanceChange
			c, err = driftChange(addr, o.key, rs.ProviderConfig, o.prev, cur, schemas)
			prev := prevRunAddr(addr)
			if err == nil && c == nil && cur != nil && p.Mode == plans.RefreshOnlyMode && !prev.Equal(addr) {
				// A refresh-only plan lists an object that only moved.
				c, err = movedOnly(addr, o.key, rs.ProviderConfig, cur, schemas)
			}
			if err != nil {
				return
			}
			if c != nil {
				c.PrevRunAddr = prev
				out = append(out, c)
			}
		}
	})
	sort.Slice(out, func(i, j int) bool { return out[i].ObjectAddr().Less(out[j].ObjectAddr()) })
	return out, err
}

// forEachInstance calls fn for every instance of s, in no particular order.
func forEachInstance(s *states.State, fn func(addrs.AbsResourceInstance, *states.Resource, *states.ResourceInstance)) {
	for _, rs := range s.Resources {
		for k, is := range rs.Instances {
			fn(rs.Addr.Instance(k), rs, is)
		}
	}
}

// driftChange compares one object before and after refresh; it returns nil
// when nothing changed.
func driftChange(addr addrs.AbsResourceInstance, key addrs.DeposedKey, provider addrs.AbsProviderConfig, prev, cur *states.ObjectSrc, schemas providers.Schemas) (*plans.ResourceInstanceChange, error) {
	if prev == cur {
		// Planning keeps the stored object when a refresh finds no
		// change, so the same pointer means no drift, without decoding.
		return nil, nil
	}
	schema, version, err := resourceSchema(schemas, provider.Provider, addr)
	if err != nil {
		return nil, err
	}
	if prev.SchemaVersion != uint64(version) || (cur != nil && cur.SchemaVersion != uint64(version)) {
		return nil, nil
	}
	ty := schema.ImpliedType()
	before, err := prev.Decode(ty)
	if err != nil {
		return nil, fmt.Errorf("decoding %s from the previous run's state: %w", addr, err)
	}
	c := &plans.ResourceInstanceChange{Addr: addr, DeposedKey: key, Provider: provider, Before: before.Value}
	if cur == nil {
		c.Action = plans.Delete
		c.After = cty.NullVal(ty)
		return c, nil
	}
	after, err := cur.Decode(ty)
	if err != nil {
		return nil, fmt.Errorf("decoding %s from the refreshed state: %w", addr, err)
	}
	if after.Value.RawEquals(before.Value) {
		return nil, nil
	}
	c.Action = plans.Update
	c.After = after.Value
	return c, nil
}

// movedOnly is the no-op drift entry of an object that moved and is
// otherwise unchanged.
func movedOnly(addr addrs.AbsResourceInstance, key addrs.DeposedKey, provider addrs.AbsProviderConfig, cur *states.ObjectSrc, schemas providers.Schemas) (*plans.ResourceInstanceChange, error) {
	schema, _, err := resourceSchema(schemas, provider.Provider, addr)
	if err != nil {
		return nil, err
	}
	obj, err := cur.Decode(schema.ImpliedType())
	if err != nil {
		return nil, fmt.Errorf("decoding %s from the refreshed state: %w", addr, err)
	}
	return &plans.ResourceInstanceChange{Addr: addr, DeposedKey: key, Provider: provider, Action: plans.NoOp, Before: obj.Value, After: obj.Value}, nil
}

func objectOf(is *states.ResourceInstance, key addrs.DeposedKey) *states.ObjectSrc {
	if key == addrs.NotDeposed {
		return is.Current
	}
	return is.Deposed[key]
}

// shownDrift returns the drift the section lists: every object in
// refresh-only mode, else those whose diff shows a change.
func (doc *planDoc) shownDrift() []resourceDiff {
	var shown []resourceDiff
	for _, rd := range doc.drift {
		if doc.mode == plans.RefreshOnlyMode || rd.diff.action != plans.NoOp {
			shown = append(shown, rd)
		}
	}
	return shown
}

// writeDrift writes the "Objects have changed outside of Terraform"
// section and reports whether it wrote it. Outside refresh-only mode the
// section is left out when the plan changes nothing.
//
// Terraform shows only the drifted attributes that planned changes refer
// to; plans do not record those references, so every drifted attribute is
// shown here, as Terraform does in refresh-only mode.
func (doc *planDoc) writeDrift(w *bufio.Writer, pr *printer, width int) bool {
	shown := doc.shownDrift()
	if len(shown) == 0 || (doc.empty && doc.mode != plans.RefreshOnlyMode) {
		return false
	}
	w.WriteString(pr.p.paint("\n[bold][cyan]Note:[reset][bold] Objects have changed outside of Terraform\n"))
	w.WriteString("\n")
	w.WriteString(wordWrap("Terraform detected the following changes made outside of Terraform since the last \"terraform apply\" which may have affected this plan:\n", width))
	var b strings.Builder
	for _, rd := range shown {
		b.Reset()
		writeResourceDiff(&b, pr, rd, detected)
		w.WriteString("\n")
		w.WriteString(b.String())
		w.WriteString("\n")
	}
	if doc.mode == plans.RefreshOnlyMode {
		w.WriteString(wordWrap("\n\nThis is a refresh-only plan, so Terraform will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the Terraform state without changing any remote objects.", width))
	} else {
		w.WriteString(wordWrap("\n\nUnless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes.", width))
	}
	w.WriteString("\n")
	return true
}
