package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestDecideAction(t *testing.T) {
	obj := func(name, key string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "key": cty.StringVal(key)})
	}
	unknownKey := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a"), "key": cty.UnknownVal(cty.String)})
	keyPath := []cty.Path{cty.GetAttrPath("key")}
	secret := cty.NewValueMarks(configschema.SensitiveMark)
	type want struct {
		Action  plans.Action
		Reason  plans.ActionReason
		Replace []string
	}
	cases := map[string]struct {
		reason string
		in     actionInput
		want   want
	}{
		"NoOp":   {in: actionInput{prior: obj("a", "1"), planned: obj("a", "1")}, want: want{Action: plans.NoOp}},
		"Update": {in: actionInput{prior: obj("a", "1"), planned: obj("b", "1")}, want: want{Action: plans.Update}},
		"UnknownIsAChange": {
			reason: "a value the provider will only know after apply counts as changed",
			in:     actionInput{prior: obj("a", "1"), planned: unknownKey},
			want:   want{Action: plans.Update},
		},
		"MarkOnlyIsAChange": {
			reason: "a value becoming sensitive changes what the plan shows, as in Terraform",
			in:     actionInput{prior: obj("a", "1"), planned: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a").WithMarks(secret), "key": cty.StringVal("1")})},
			want:   want{Action: plans.Update},
		},
		"RequiresReplaceChanged": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "2"), requiresReplace: keyPath},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Replace: []string{"key"}},
		},
		"RequiresReplaceUnchanged": {
			reason: "a provider may list a replace path that is not changing; it does not force anything",
			in:     actionInput{prior: obj("a", "1"), planned: obj("b", "1"), requiresReplace: keyPath},
			want:   want{Action: plans.Update},
		},
		"RequiresReplaceUnknown": {
			in:   actionInput{prior: obj("a", "1"), planned: unknownKey, requiresReplace: keyPath},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Replace: []string{"key"}},
		},
		"RequiresReplaceWriteOnly": {
			reason: "a write-only attribute is null on both sides, yet a provider that lists it asks for a replacement (OpenTofu)",
			in:     actionInput{prior: obj("a", "1"), planned: obj("a", "1"), requiresReplace: []cty.Path{cty.GetAttrPath("password_wo")}, writeOnlyReplace: []cty.Path{cty.GetAttrPath("password_wo")}},
			want:   want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Replace: []string{"password_wo"}},
		},
		"CreateBeforeDestroy": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "2"), requiresReplace: keyPath, createBeforeDestroy: true},
			want: want{Action: plans.CreateThenDelete, Reason: plans.ReasonReplaceBecauseCannotUpdate, Replace: []string{"key"}},
		},
		"TaintedWinsOverEverything": {
			reason: "Terraform's order: tainted, then -replace, then RequiresReplace, then triggers",
			in:     actionInput{prior: obj("a", "1"), planned: obj("a", "2"), requiresReplace: keyPath, tainted: true, forced: true, triggered: true},
			want:   want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseTainted, Replace: []string{"key"}},
		},
		"TaintedNoChange": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "1"), tainted: true},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseTainted},
		},
		"ForcedBeforeRequiresReplace": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "2"), requiresReplace: keyPath, forced: true, triggered: true},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceByRequest, Replace: []string{"key"}},
		},
		"ForcedCreateBeforeDestroy": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "1"), forced: true, createBeforeDestroy: true},
			want: want{Action: plans.CreateThenDelete, Reason: plans.ReasonReplaceByRequest},
		},
		"Triggered": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "1"), triggered: true},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceByTriggers},
		},
		"RequiresReplaceBeforeTriggered": {
			in:   actionInput{prior: obj("a", "1"), planned: obj("a", "2"), requiresReplace: keyPath, triggered: true},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Replace: []string{"key"}},
		},
		"NullPriorAttributeToValue": {
			in:   actionInput{prior: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a"), "key": cty.NullVal(cty.String)}), planned: obj("a", "1"), requiresReplace: keyPath},
			want: want{Action: plans.DeleteThenCreate, Reason: plans.ReasonReplaceBecauseCannotUpdate, Replace: []string{"key"}},
		},
		"ReplacePathIntoNothing": {
			reason: "a path that leads nowhere on either side is not a change",
			in:     actionInput{prior: obj("a", "1"), planned: obj("a", "1"), requiresReplace: []cty.Path{cty.GetAttrPath("gone").GetAttr("x")}},
			want:   want{Action: plans.NoOp},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			action, reason, paths := decideAction(tc.in)
			got := want{Action: action, Reason: reason}
			for _, p := range paths {
				got.Replace = append(got.Replace, p[0].(cty.GetAttrStep).Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
