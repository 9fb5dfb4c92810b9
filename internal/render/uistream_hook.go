package render

import (
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// The "hook" field of progress messages says which instance, and for apply
// messages the action, the identifying attribute and the time taken; each
// message type has its own set of fields.
type uiApplyHook struct {
	Resource uiResource `json:"resource"`
	Action   string     `json:"action"`
	IDKey    string     `json:"id_key,omitempty"`
	IDValue  string     `json:"id_value,omitempty"`
	Elapsed  float64    `json:"elapsed_seconds"`
}

type uiApplyStartHook struct {
	Resource uiResource `json:"resource"`
	Action   string     `json:"action"`
	IDKey    string     `json:"id_key,omitempty"`
	IDValue  string     `json:"id_value,omitempty"`
}

type uiApplyTimedHook struct {
	Resource uiResource `json:"resource"`
	Action   string     `json:"action"`
	Elapsed  float64    `json:"elapsed_seconds"`
}

type uiRefreshHook struct {
	Resource uiResource `json:"resource"`
	IDKey    string     `json:"id_key,omitempty"`
	IDValue  string     `json:"id_value,omitempty"`
}

// idText is " [key=value]" or "".
func idText(key, value string) string {
	if key == "" || value == "" {
		return ""
	}
	return " [" + key + "=" + value + "]"
}

// UIApplyStart is the apply_start message of an operation on an object;
// prior is its value before the operation (null for a create).
func UIApplyStart(addr addrs.AbsResourceInstance, action plans.Action, prior cty.Value, secrets *marks.Known) UIMessage {
	k, v := ObjectIDOrName(prior, secrets)
	h := uiApplyStartHook{Resource: newUIResource(addr), Action: uiAction(action), IDKey: k, IDValue: v}
	verb, _, _ := uiVerbs(action)
	return infoMessage("apply_start", fmt.Sprintf("%s: %s...%s", addr, verb, idText(k, v)), "hook", h)
}

// UIApplyProgress is the apply_progress message of an operation still
// running after elapsed.
func UIApplyProgress(addr addrs.AbsResourceInstance, action plans.Action, elapsed time.Duration) UIMessage {
	h := uiApplyTimedHook{Resource: newUIResource(addr), Action: uiAction(action), Elapsed: elapsed.Seconds()}
	_, gerund, _ := uiVerbs(action)
	return infoMessage("apply_progress", fmt.Sprintf("%s: Still %s... [%s elapsed]", addr, gerund, elapsed), "hook", h)
}

// UIApplyComplete is the apply_complete message of a finished operation;
// newVal is the object's new value (null after a delete).
func UIApplyComplete(addr addrs.AbsResourceInstance, action plans.Action, newVal cty.Value, elapsed time.Duration, secrets *marks.Known) UIMessage {
	k, v := ObjectID(newVal, secrets)
	h := uiApplyHook{Resource: newUIResource(addr), Action: uiAction(action), IDKey: k, IDValue: v, Elapsed: elapsed.Seconds()}
	_, _, noun := uiVerbs(action)
	return infoMessage("apply_complete", fmt.Sprintf("%s: %s complete after %s%s", addr, noun, elapsed, idText(k, v)), "hook", h)
}

// UIApplyErrored is the apply_errored message of a failed operation; the
// error itself follows as a diagnostic.
func UIApplyErrored(addr addrs.AbsResourceInstance, action plans.Action, elapsed time.Duration) UIMessage {
	h := uiApplyTimedHook{Resource: newUIResource(addr), Action: uiAction(action), Elapsed: elapsed.Seconds()}
	_, _, noun := uiVerbs(action)
	return infoMessage("apply_errored", fmt.Sprintf("%s: %s errored after %s", addr, noun, elapsed), "hook", h)
}

// UIRefreshStart is the refresh_start message of reading an existing
// object during planning; prior is its stored value.
func UIRefreshStart(addr addrs.AbsResourceInstance, prior cty.Value, secrets *marks.Known) UIMessage {
	k, v := ObjectID(prior, secrets)
	h := uiRefreshHook{Resource: newUIResource(addr), IDKey: k, IDValue: v}
	return infoMessage("refresh_start", fmt.Sprintf("%s: Refreshing state...%s", addr, idText(k, v)), "hook", h)
}

// UIRefreshComplete is the refresh_complete message; refreshed is the
// object as read (null when it is gone).
func UIRefreshComplete(addr addrs.AbsResourceInstance, refreshed cty.Value, secrets *marks.Known) UIMessage {
	k, v := ObjectID(refreshed, secrets)
	h := uiRefreshHook{Resource: newUIResource(addr), IDKey: k, IDValue: v}
	return infoMessage("refresh_complete", fmt.Sprintf("%s: Refresh complete%s", addr, idText(k, v)), "hook", h)
}

// uiVerbs are the words of the stream's progress messages: "Creating...",
// "Still creating...", "Creation complete". A read during apply is a
// refresh of a data resource.
func uiVerbs(a plans.Action) (verb, gerund, noun string) {
	switch a {
	case plans.Create:
		return "Creating", "creating", "Creation"
	case plans.Update:
		return "Modifying", "modifying", "Modifications"
	case plans.Delete:
		return "Destroying", "destroying", "Destruction"
	case plans.Read:
		return "Refreshing", "refreshing", "Refresh"
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "Replacing", "replacing", "Replacement"
	}
	return "Applying", "applying", "Apply"
}

// ObjectID returns the attribute that identifies an object to people, as
// progress messages show it ("[id=...]"): its string "id", or failing that
// its string "name". Unknown and null values are never shown, nor is a
// sensitive one: marked, or revealing a secret of the object or of the
// run (secrets, may be nil; see shownString).
func ObjectID(obj cty.Value, secrets *marks.Known) (key, value string) {
	if obj == cty.NilVal || obj.IsNull() || !obj.IsKnown() || !obj.Type().IsObjectType() {
		return "", ""
	}
	switch atys := obj.Type().AttributeTypes(); {
	case atys["id"] == cty.String:
		return shownString("id", obj.GetAttr("id"), obj, secrets)
	case atys["name"] == cty.String:
		return shownString("name", obj.GetAttr("name"), obj, secrets)
	}
	return "", ""
}

// ObjectIDOrName is ObjectID, or when that finds nothing the object's
// "name" or its "Name" or "name" tag, as an operation's first message
// names the object it is about to change.
func ObjectIDOrName(obj cty.Value, secrets *marks.Known) (key, value string) {
	if k, v := ObjectID(obj, secrets); k != "" {
		return k, v
	}
	if obj == cty.NilVal || obj.IsNull() || !obj.IsKnown() || !obj.Type().IsObjectType() {
		return "", ""
	}
	atys := obj.Type().AttributeTypes()
	if atys["name"] == cty.String {
		return shownString("name", obj.GetAttr("name"), obj, secrets)
	}
	tagsTy, ok := atys["tags"]
	if !ok || !tagsTy.IsMapType() || tagsTy.ElementType() != cty.String {
		return "", ""
	}
	tags := obj.GetAttr("tags")
	if tags.IsMarked() || tags.IsNull() || !tags.IsWhollyKnown() {
		return "", ""
	}
	for _, k := range []string{"name", "Name"} {
		if tags.HasIndex(cty.StringVal(k)).True() {
			return shownString("tags."+k, tags.Index(cty.StringVal(k)), obj, secrets)
		}
	}
	return "", ""
}

// shownString returns key and v's text, or nothing when v may not be
// shown: unknown, null or sensitive. A value is sensitive when it is
// marked (by configuration, the schema or a declared copy), and also when
// it reveals one of obj's secrets or the run's (marks.Secrets): an
// identifier is computed by the provider, often from the object's own
// arguments (awscc's id is the log group's name, an ARN contains it) or
// from another object's (an input copied from a secret-named log group's
// id), and Terraform, which looks only at marks, prints a secret name in
// every progress line.
func shownString(key string, v, obj cty.Value, secrets *marks.Known) (string, string) {
	if v.IsMarked() || !v.IsKnown() || v.IsNull() {
		return "", ""
	}
	if text := v.AsString(); secrets.Reveals(text) || marks.SecretsOf(obj).Reveals(text) {
		return "", ""
	}
	return key, v.AsString()
}

// uiEphemeralHook is the hook of OpenTofu's ephemeral_action_started and
// ephemeral_action_complete messages: the resource and the message text
// ("Opening...", "Open complete"), under OpenTofu's field name Msg.
type uiEphemeralHook struct {
	Resource uiResource `json:"resource"`
	Msg      string     `json:"Msg"`
}

// EphemeralWords are how OpenTofu 1.12 words an operation on an
// ephemeral resource: as it starts ("Opening...") and as it completes
// ("Open complete"), by op 'O' (open), 'R' (renew) or 'C' (close).
func EphemeralWords(op byte) (starting, complete string) {
	switch op {
	case 'R':
		return "Renewing...", "Renew complete"
	case 'C':
		return "Closing...", "Close complete"
	}
	return "Opening...", "Open complete"
}

// UIEphemeral is the ephemeral_action_started message (done false) or
// ephemeral_action_complete message (done true) of an operation on an
// ephemeral resource instance, as OpenTofu 1.12 sends them.
func UIEphemeral(addr addrs.AbsResourceInstance, op byte, done bool) UIMessage {
	starting, complete := EphemeralWords(op)
	typ, msg := "ephemeral_action_started", starting
	if done {
		typ, msg = "ephemeral_action_complete", complete
	}
	return infoMessage(typ, fmt.Sprintf("%s: %s", addr, msg), "hook", uiEphemeralHook{Resource: newUIResource(addr), Msg: msg})
}
