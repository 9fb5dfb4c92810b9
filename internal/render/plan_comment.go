package render

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
)

// why says whether a change is planned (the plan's own changes) or was
// detected (drift: objects changed outside of Terraform).
type why byte

const (
	planned why = iota
	detected
)

// changeComment returns the "# addr will be ..." lines above a resource
// change, painted, each line ending in a newline.
func changeComment(p painter, c *plans.ResourceInstanceChange, act plans.Action, cause why) string {
	addr := c.Addr.String()
	if c.DeposedKey != "" {
		addr = fmt.Sprintf("%s (deposed object %s)", addr, c.DeposedKey)
	}
	var b strings.Builder
	switch act {
	case plans.Create:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be created", addr)
	case plans.Read:
		fmt.Fprintf(&b, "[bold]  # %s[reset] will be read during apply", addr)
		switch c.ActionReason {
		case plans.ReasonReadBecauseConfigUnknown:
			b.WriteString("\n  # (config refers to values not yet known)")
		case plans.ReasonReadBecauseDependencyPending:
			b.WriteString("\n  # (depends on a resource or a module with changes pending)")
		case plans.ReasonReadBecauseCheckNested:
			b.WriteString("\n  # (config will be reloaded to verify a check block)")
		}
	case plans.Update:
		if cause == detected {
			fmt.Fprintf(&b, "[bold]  # %s[reset] has changed", addr)
		} else {
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be updated in-place", addr)
		}
	case plans.CreateThenDelete, plans.DeleteThenCreate:
		switch c.ActionReason {
		case plans.ReasonReplaceBecauseTainted:
			fmt.Fprintf(&b, "[bold]  # %s[reset] is tainted, so must be [bold][red]replaced[reset]", addr)
		case plans.ReasonReplaceByRequest:
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]replaced[reset], as requested", addr)
		case plans.ReasonReplaceByTriggers:
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by", addr)
		default:
			fmt.Fprintf(&b, "[bold]  # %s[reset] must be [bold][red]replaced[reset]", addr)
		}
	case plans.Delete:
		if cause == detected {
			fmt.Fprintf(&b, "[bold]  # %s[reset] has been deleted", addr)
		} else {
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be [bold][red]destroyed[reset]", addr)
		}
		b.WriteString(deleteReason(c))
		if c.DeposedKey != "" {
			b.WriteString("\n  # (left over from a partially-failed replacement of this instance)")
		}
	case plans.Forget:
		fmt.Fprintf(&b, "[bold] # %s[reset] will no longer be managed by Terraform, but [bold][red]will not be destroyed[reset]", addr)
		b.WriteString("\n # (destroy = false is set in the configuration)")
	case plans.NoOp:
		if c.Moved() {
			fmt.Fprintf(&b, "[bold]  # %s[reset] has moved to [bold]%s[reset]", c.PrevRunAddr, addr)
			break
		}
		if c.Importing != nil && cause == planned {
			fmt.Fprintf(&b, "[bold]  # %s[reset] will be imported", addr)
			if c.Importing.GeneratedConfig != "" {
				b.WriteString("\n  # [reset](config will be generated)")
			}
			break
		}
		fallthrough
	default:
		fmt.Fprintf(&b, "%s has an action the plan renderer doesn't support (this is a bug)", addr)
	}
	prev := ""
	if c.Moved() {
		prev = c.PrevRunAddr.String()
		if act != plans.NoOp {
			fmt.Fprintf(&b, "\n  # [reset](moved from %s)", prev)
		}
	}
	b.WriteString("\n")
	out := paintAround(p, b.String(), addr, prev)
	if c.Importing != nil && cause == planned {
		// The id is user text too, painted around like the address.
		out += paintAround(p, importNote(c, act), c.Importing.ID)
	}
	return out
}

// importNote returns the lines that say a change that does more than
// import starts with an import, and warn when it then replaces the
// imported object.
func importNote(c *plans.ResourceInstanceChange, act plans.Action) string {
	var b strings.Builder
	if act != plans.NoOp {
		if len(c.Importing.Identity) > 0 {
			fmt.Fprintf(&b, "  # [reset](imported with %s)\n", c.Importing.Label())
		} else {
			fmt.Fprintf(&b, "  # [reset](imported from \"%s\")\n", c.Importing.ID)
		}
	}
	if act.IsReplace() {
		b.WriteString("  # [reset][yellow]Warning: this will destroy the imported resource[reset]\n")
	}
	return b.String()
}

// deleteReason returns the note that says why an object is deleted, or "".
func deleteReason(c *plans.ResourceInstanceChange) string {
	r := c.Addr.Resource
	switch c.ActionReason {
	case plans.ReasonDeleteBecauseNoResourceConfig:
		return fmt.Sprintf("\n  # (because %s.%s is not in configuration)", r.Resource.Type, r.Resource.Name)
	case plans.ReasonDeleteBecauseWrongRepetition:
		switch r.Key.(type) {
		case nil:
			return "\n  # (because resource uses count or for_each)"
		case addrs.IntKey:
			return "\n  # (because resource does not use count)"
		case addrs.StringKey:
			return "\n  # (because resource does not use for_each)"
		}
	case plans.ReasonDeleteBecauseEnabledFalse:
		return "\n  # (because enabled is false)"
	case plans.ReasonDeleteBecauseNoModule:
		return fmt.Sprintf("\n  # (because %s is not in configuration)", c.Addr.Module)
	case plans.ReasonDeleteBecauseNoMoveTarget:
		return fmt.Sprintf("\n  # (because %s was moved to %s, which is not in configuration)", c.PrevRunAddr, c.Addr)
	case plans.ReasonDeleteBecauseCountIndex:
		return fmt.Sprintf("\n  # (because index [%s] is out of range for count)", keyJSON(r.Key))
	case plans.ReasonDeleteBecauseEachKey:
		return fmt.Sprintf("\n  # (because key [%s] is not in for_each map)", keyJSON(r.Key))
	}
	return ""
}

// paintAround paints a template into which user text (addr) has already
// been formatted, without reading tags inside the user text: the text is
// swapped for a placeholder while painting.
func paintAround(p painter, s string, users ...string) string {
	var holes []string
	for i, user := range users {
		if user == "" || !strings.Contains(user, "[") {
			continue
		}
		hole := "\x00" + strconv.Itoa(i) + "\x00"
		s = strings.ReplaceAll(s, user, hole)
		holes = append(holes, hole, user)
	}
	if len(holes) == 0 {
		return p.paint(s)
	}
	return strings.NewReplacer(holes...).Replace(p.paint(s))
}

// resourceHeader returns `resource "type" "name"` (or data ...).
func resourceHeader(addr addrs.AbsResourceInstance) string {
	r := addr.Resource.Resource
	mode := "resource"
	if r.Mode == addrs.DataResourceMode {
		mode = "data"
	}
	return fmt.Sprintf("%s %q %q", mode, r.Type, r.Name)
}

// keyJSON returns an instance key as JSON: 1 or "a".
func keyJSON(k addrs.InstanceKey) string {
	switch k := k.(type) {
	case addrs.IntKey:
		return strconv.Itoa(int(k))
	case addrs.StringKey:
		b, _ := json.Marshal(string(k))
		return string(b)
	}
	return ""
}
