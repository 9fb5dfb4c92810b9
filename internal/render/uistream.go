package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// UIVersion is the version of the machine-readable UI format Cairn writes,
// the one Terraform 1.5.7 writes.
const UIVersion = "1.1"

// uiModule is the @module every message of the stream carries.
const uiModule = "terraform.ui"

// UIMessage is one line of the machine-readable UI stream that `terraform
// plan -json`, `apply -json` and `destroy -json` write: a JSON object with
// @level, @message, @module, @timestamp and type, plus the fields of its
// type (change, changes, hook, outputs, diagnostic, ...). Tools such as
// Atlantis, Terragrunt and tfcmt read it line by line.
//
// The stream says what happens, never the values involved: no message
// carries an attribute value or a sensitive output's value, so it is safe
// to keep in CI logs.
type UIMessage struct {
	// Level is "info", "warn" or "error".
	Level   string
	Message string
	Type    string
	// Fields are the type's fields by key, each encoded as JSON.
	Fields map[string]any
}

// Encode writes m as one line with the given timestamp, in the form
// Terraform's logger writes: keys in lexical order, HTML characters
// escaped, the time in microseconds.
func (m UIMessage) Encode(w io.Writer, at time.Time) error {
	line := make(map[string]any, len(m.Fields)+5)
	for k, v := range m.Fields {
		line[k] = v
	}
	line["@level"] = m.Level
	line["@message"] = m.Message
	line["@module"] = uiModule
	line["@timestamp"] = at.Format("2006-01-02T15:04:05.000000Z07:00")
	line["type"] = m.Type
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(line); err != nil {
		return fmt.Errorf("encoding %s message: %w", m.Type, err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func infoMessage(typ, msg string, key string, val any) UIMessage {
	return UIMessage{Level: "info", Message: msg, Type: typ, Fields: map[string]any{key: val}}
}

// UIVersionMessage is the first message of every stream: which program
// wrote it and which UI format and Terraform version it follows. The
// message names the program; the "terraform" field is the Terraform version
// whose behaviour and formats Cairn implements, as in the JSON documents.
func UIVersionMessage(program, version string) UIMessage {
	return UIMessage{Level: "info", Message: program + " " + version, Type: "version",
		Fields: map[string]any{"terraform": TerraformVersion, "ui": UIVersion}}
}

// UILogMessage is a free-text message, such as the notice of an interrupt.
func UILogMessage(msg string) UIMessage {
	return UIMessage{Level: "info", Message: msg, Type: "log"}
}

// uiResource names a resource instance in every way a tool may want it.
type uiResource struct {
	Addr            string `json:"addr"`
	Module          string `json:"module"`
	Resource        string `json:"resource"`
	ImpliedProvider string `json:"implied_provider"`
	ResourceType    string `json:"resource_type"`
	ResourceName    string `json:"resource_name"`
	// ResourceKey is the count index or for_each key, null without one.
	ResourceKey json.RawMessage `json:"resource_key"`
}

func newUIResource(addr addrs.AbsResourceInstance) uiResource {
	key := json.RawMessage("null")
	if k := addr.Resource.Key; k != nil {
		sv := ctyjson.SimpleJSONValue{Value: k.Value()}
		if b, err := sv.MarshalJSON(); err == nil {
			key = b
		}
	}
	r := addr.Resource.Resource
	return uiResource{
		Addr:            addr.String(),
		Module:          addr.Module.String(),
		Resource:        addr.Resource.String(),
		ImpliedProvider: r.ImpliedProviderType(),
		ResourceType:    r.Type,
		ResourceName:    r.Name,
		ResourceKey:     key,
	}
}

// uiAction is the action word of the stream: a replacement is one
// "replace", where the JSON plan document lists its two steps.
func uiAction(a plans.Action) string {
	switch a {
	case plans.Create, plans.Read, plans.Update, plans.Delete:
		return a.String()
	case plans.DeleteThenCreate, plans.CreateThenDelete:
		return "replace"
	case plans.Forget:
		// Terraform 1.7's stream word for forgetting.
		return "remove"
	}
	return "noop"
}

// uiReasons are the stream's words for why an action was chosen; they
// differ from the JSON plan document's for replacements.
var uiReasons = map[plans.ActionReason]string{
	plans.ReasonReplaceBecauseTainted:         "tainted",
	plans.ReasonReplaceByRequest:              "requested",
	plans.ReasonReplaceBecauseCannotUpdate:    "cannot_update",
	plans.ReasonReplaceByTriggers:             "replace_triggered_by",
	plans.ReasonDeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
	plans.ReasonDeleteBecauseWrongRepetition:  "delete_because_wrong_repetition",
	plans.ReasonDeleteBecauseCountIndex:       "delete_because_count_index",
	plans.ReasonDeleteBecauseEachKey:          "delete_because_each_key",
	plans.ReasonReadBecauseConfigUnknown:      "read_because_config_unknown",
	plans.ReasonReadBecauseDependencyPending:  "read_because_dependency_pending",
	plans.ReasonDeleteBecauseNoModule:         "delete_because_no_module",
	plans.ReasonReadBecauseCheckNested:        "read_because_check_nested",
	plans.ReasonDeleteBecauseNoMoveTarget:     "delete_because_no_move_target",
	plans.ReasonDeleteBecauseEnabledFalse:     "delete_because_enabled_false",
}

// uiChange is a planned or drifted change: the instance and the action,
// never the values.
type uiChange struct {
	Resource uiResource `json:"resource"`
	// PreviousResource is the address in the previous run's state, set
	// only when the object moved.
	PreviousResource *uiResource      `json:"previous_resource,omitempty"`
	Action           string           `json:"action"`
	Reason           string           `json:"reason,omitempty"`
	Importing        *plans.Importing `json:"importing,omitempty"`
}

// newUIChange describes a change; a no-op that moves has the action
// "move" and one that imports "import" (a move wins), a moved object
// names its previous address, and any import carries its id, as in
// Terraform 1.5.
func newUIChange(c *plans.ResourceInstanceChange) *uiChange {
	ch := &uiChange{Resource: newUIResource(c.Addr), Action: uiAction(c.Action), Reason: uiReasons[c.ActionReason]}
	if c.Moved() {
		prev := newUIResource(c.PrevRunAddr)
		ch.PreviousResource = &prev
		if c.Action == plans.NoOp {
			ch.Action = "move"
		}
	}
	if c.Importing != nil {
		if ch.Action == "noop" {
			ch.Action = "import"
		}
		ch.Importing = &plans.Importing{ID: c.Importing.ID, Identity: c.Importing.Identity}
	}
	return ch
}

// UIChangeSummary counts what a plan, apply or destroy does. operation is
// "plan", "apply" or "destroy".
type UIChangeSummary struct {
	Add    int `json:"add"`
	Change int `json:"change"`
	Import int `json:"import"`
	Remove int `json:"remove"`
	// Forget counts objects left in the cloud but dropped from state
	// (Terraform 1.7 and OpenTofu); absent when none, as from 1.5.
	Forget    int    `json:"forget,omitempty"`
	Operation string `json:"operation"`
}

// Message returns the change_summary message, worded as the human output's
// summary line.
func (s UIChangeSummary) Message() UIMessage {
	return infoMessage("change_summary", s.text(), "changes", s)
}

// text is the summary line, as Terraform 1.5.7 words it; imports lead it
// and forgets end it only when there are some, as Terraform 1.7 and
// OpenTofu word them.
func (s UIChangeSummary) text() string {
	switch s.Operation {
	case "apply":
		return "Apply complete! Resources: " + s.counted("%d imported, ", "%d added, %d changed, %d destroyed", ", %d forgotten") + "."
	case "destroy":
		return fmt.Sprintf("Destroy complete! Resources: %d destroyed.", s.Remove)
	}
	return "Plan: " + s.counted("%d to import, ", "%d to add, %d to change, %d to destroy", ", %d to forget") + "."
}

// counted words the counts: the import and forget parts only when
// non-zero.
func (s UIChangeSummary) counted(imports, changes, forgets string) string {
	var b strings.Builder
	if s.Import > 0 {
		fmt.Fprintf(&b, imports, s.Import)
	}
	fmt.Fprintf(&b, changes, s.Add, s.Change, s.Remove)
	if s.Forget > 0 {
		fmt.Fprintf(&b, forgets, s.Forget)
	}
	return b.String()
}
