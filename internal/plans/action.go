package plans

// Action is what will happen to one resource instance or output.
type Action rune

const (
	NoOp             Action = 0
	Create           Action = '+'
	Read             Action = '←'
	Update           Action = '~'
	DeleteThenCreate Action = '∓'
	CreateThenDelete Action = '±'
	Delete           Action = '-'
	// Forget drops the object from state without destroying it: a
	// removed block with destroy = false (Terraform 1.7).
	Forget Action = '.'
)

// String returns the action's name as Terraform's JSON plan spells it.
func (a Action) String() string {
	switch a {
	case NoOp:
		return "no-op"
	case Create:
		return "create"
	case Read:
		return "read"
	case Update:
		return "update"
	case DeleteThenCreate:
		return "delete-then-create"
	case CreateThenDelete:
		return "create-then-delete"
	case Delete:
		return "delete"
	case Forget:
		return "forget"
	}
	return "invalid"
}

// IsReplace reports whether the action replaces the object.
func (a Action) IsReplace() bool { return a == DeleteThenCreate || a == CreateThenDelete }

// JSONActions returns the action as the list terraform-json uses
// (["delete","create"] for a replace).
func (a Action) JSONActions() []string {
	switch a {
	case DeleteThenCreate:
		return []string{"delete", "create"}
	case CreateThenDelete:
		return []string{"create", "delete"}
	}
	return []string{a.String()}
}

// ActionReason says why an action was chosen when the action alone does not
// (replacements, deletions, deferred reads).
type ActionReason byte

const (
	ReasonNone ActionReason = iota
	ReasonReplaceBecauseTainted
	ReasonReplaceByRequest
	ReasonReplaceBecauseCannotUpdate
	ReasonReplaceByTriggers
	ReasonDeleteBecauseNoResourceConfig
	ReasonDeleteBecauseWrongRepetition
	ReasonDeleteBecauseCountIndex
	ReasonDeleteBecauseEachKey
	ReasonReadBecauseConfigUnknown
	ReasonReadBecauseDependencyPending
	// ReasonDeleteBecauseNoModule: the object's module instance is no
	// longer in the configuration (its call's count or for_each dropped
	// it).
	ReasonDeleteBecauseNoModule
	// ReasonReadBecauseCheckNested: a check block's scoped data source is
	// read again during apply, so its assertions see the applied world.
	ReasonReadBecauseCheckNested
	// ReasonDeleteBecauseNoMoveTarget: a moved block sent the object to
	// an address the configuration does not declare.
	ReasonDeleteBecauseNoMoveTarget
	// ReasonDeleteBecauseEnabledFalse: the resource's lifecycle.enabled
	// is false (OpenTofu 1.11).
	ReasonDeleteBecauseEnabledFalse
)

var reasonJSON = map[ActionReason]string{
	ReasonReplaceBecauseTainted:         "replace_because_tainted",
	ReasonReplaceByRequest:              "replace_by_request",
	ReasonReplaceBecauseCannotUpdate:    "replace_because_cannot_update",
	ReasonReplaceByTriggers:             "replace_by_triggers",
	ReasonDeleteBecauseNoResourceConfig: "delete_because_no_resource_config",
	ReasonDeleteBecauseWrongRepetition:  "delete_because_wrong_repetition",
	ReasonDeleteBecauseCountIndex:       "delete_because_count_index",
	ReasonDeleteBecauseEachKey:          "delete_because_each_key",
	ReasonReadBecauseConfigUnknown:      "read_because_config_unknown",
	ReasonReadBecauseDependencyPending:  "read_because_dependency_pending",
	ReasonDeleteBecauseNoModule:         "delete_because_no_module",
	ReasonReadBecauseCheckNested:        "read_because_check_nested",
	ReasonDeleteBecauseNoMoveTarget:     "delete_because_no_move_target",
	ReasonDeleteBecauseEnabledFalse:     "delete_because_enabled_false",
}

// JSON returns the reason as Terraform's JSON plan spells it, or "".
func (r ActionReason) JSON() string { return reasonJSON[r] }
