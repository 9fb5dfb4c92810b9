package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

var uiTime = time.Date(2023, 9, 13, 10, 11, 12, 345678000, time.UTC)

// encodeUI returns messages as the lines of a stream.
func encodeUI(t *testing.T, msgs ...UIMessage) []string {
	t.Helper()
	var b bytes.Buffer
	for _, m := range msgs {
		if err := m.Encode(&b, uiTime); err != nil {
			t.Fatal(err)
		}
	}
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

const (
	uiHead     = `{"@level":"info","@message":`
	thingA     = `{"addr":"example_thing.a","module":"","resource":"example_thing.a","implied_provider":"example","resource_type":"example_thing","resource_name":"a","resource_key":null}`
	thingB     = `{"addr":"example_thing.b","module":"","resource":"example_thing.b","implied_provider":"example","resource_type":"example_thing","resource_name":"b","resource_key":null}`
	uiStampMod = `"@module":"terraform.ui","@timestamp":"2023-09-13T10:11:12.345678Z"`
)

// TestPlanUIMessages: drift, then planned changes without no-ops or the
// forgetting of data resources, the summary counting a replacement twice,
// and outputs with their actions and nothing of their values.
func TestPlanUIMessages(t *testing.T) {
	small := func(desc string) cty.Value {
		return thing(map[string]cty.Value{"id": str("i-" + desc), "name": str("n"), "description": str(desc), "password": str("hunter2")})
	}
	lookup := addrs.Resource{Mode: addrs.DataResourceMode, Type: "example_lookup", Name: "l"}.Absolute(addrs.RootModuleInstance)
	p := &plans.Plan{
		PrevRunState: exampleState(t, map[string]cty.Value{"a": small("old"), "b": small("gone")}),
		PriorState:   exampleState(t, map[string]cty.Value{"a": small("changed")}),
		Changes: []*plans.ResourceInstanceChange{
			thingChange("c", plans.NoOp, small("c"), small("c")),
			{Addr: thingAddr("a", addrs.NoKey), Provider: addrs.AbsProviderConfig{Provider: exampleProvider},
				Action: plans.DeleteThenCreate, ActionReason: plans.ReasonReplaceByRequest, Before: small("changed"), After: small("new")},
			{Addr: lookup.Instance(addrs.NoKey), Provider: addrs.AbsProviderConfig{Provider: exampleProvider},
				Action: plans.Delete, Before: obj(map[string]cty.Value{"query": str("q"), "result": cty.ListValEmpty(cty.String)}),
				After: cty.NullVal(lookupSchema.ImpliedType())},
		},
		Outputs: []*plans.OutputChange{
			{Name: "pw", Action: plans.Update, Before: str("hunter1"), After: str("hunter2"), Sensitive: true},
		},
	}
	msgs, err := PlanUIMessages(p, exampleSchemas())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		uiHead + `"example_thing.a: Drift detected (update)",` + uiStampMod + `,"change":{"resource":` + thingA + `,"action":"update"},"type":"resource_drift"}`,
		uiHead + `"example_thing.b: Drift detected (delete)",` + uiStampMod + `,"change":{"resource":` + thingB + `,"action":"delete"},"type":"resource_drift"}`,
		uiHead + `"example_thing.a: Plan to replace",` + uiStampMod + `,"change":{"resource":` + thingA + `,"action":"replace","reason":"requested"},"type":"planned_change"}`,
		uiHead + `"Plan: 1 to add, 0 to change, 1 to destroy.",` + uiStampMod + `,"changes":{"add":1,"change":0,"import":0,"remove":1,"operation":"plan"},"type":"change_summary"}`,
		uiHead + `"Outputs: 1",` + uiStampMod + `,"outputs":{"pw":{"sensitive":true,"action":"update"}},"type":"outputs"}`,
	}
	if diff := cmp.Diff(want, encodeUI(t, msgs...)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// TestUIProgressMessages: the hook messages of apply and refresh name the
// object by a shown id, name or Name tag, never by a sensitive one.
func TestUIProgressMessages(t *testing.T) {
	a := thingAddr("a", addrs.NoKey)
	c := thingAddr("c", addrs.StringKey("k"))
	withID := thing(map[string]cty.Value{"id": str("i-1"), "name": str("n")})
	secretID := thing(map[string]cty.Value{"id": str("hunter2").Mark(configschema.SensitiveMark), "name": str("n")})
	tagged := cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"Name": str("web")})})
	// An id the provider built from a sensitive argument, and one that
	// contains it: neither is marked, both copy a secret.
	derivedID := thing(map[string]cty.Value{"id": str("app-hunter2"), "name": str("app-hunter2").Mark(configschema.SensitiveMark)})
	arnID := thing(map[string]cty.Value{"id": str("arn:aws:logs:us-east-1:1:log-group:app-hunter2"), "name": str("n"), "password": str("app-hunter2").Mark(configschema.SensitiveMark)})
	plainID := thing(map[string]cty.Value{"id": str("i-1"), "name": str("n"), "password": str("app-hunter2").Mark(configschema.SensitiveMark)})
	cKey := `{"addr":"example_thing.c[\"k\"]","module":"","resource":"example_thing.c[\"k\"]","implied_provider":"example","resource_type":"example_thing","resource_name":"c","resource_key":"k"}`
	tests := map[string]struct {
		msg  UIMessage
		want string
	}{
		"start of a delete names the id": {
			msg:  UIApplyStart(a, plans.Delete, withID, nil),
			want: uiHead + `"example_thing.a: Destroying... [id=i-1]",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"delete","id_key":"id","id_value":"i-1"},"type":"apply_start"}`,
		},
		"start of a create has no id": {
			msg:  UIApplyStart(c, plans.Create, cty.NullVal(withID.Type()), nil),
			want: uiHead + `"example_thing.c[\"k\"]: Creating...",` + uiStampMod + `,"hook":{"resource":` + cKey + `,"action":"create"},"type":"apply_start"}`,
		},
		"start falls back to the Name tag": {
			msg:  UIApplyStart(a, plans.Update, tagged, nil),
			want: uiHead + `"example_thing.a: Modifying... [tags.Name=web]",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"update","id_key":"tags.Name","id_value":"web"},"type":"apply_start"}`,
		},
		"a sensitive id is never shown, and the name is not used in its place": {
			msg:  UIApplyComplete(a, plans.Create, secretID, 3*time.Second, nil),
			want: uiHead + `"example_thing.a: Creation complete after 3s",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"create","elapsed_seconds":3},"type":"apply_complete"}`,
		},
		"an id derived from a sensitive argument is not shown": {
			msg:  UIApplyComplete(a, plans.Create, derivedID, 3*time.Second, nil),
			want: uiHead + `"example_thing.a: Creation complete after 3s",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"create","elapsed_seconds":3},"type":"apply_complete"}`,
		},
		"an id containing a secret is not shown while refreshing": {
			msg:  UIRefreshStart(a, arnID, nil),
			want: uiHead + `"example_thing.a: Refreshing state...",` + uiStampMod + `,"hook":{"resource":` + thingA + `},"type":"refresh_start"}`,
		},
		"an id beside a secret is shown": {
			msg:  UIApplyStart(a, plans.Delete, plainID, nil),
			want: uiHead + `"example_thing.a: Destroying... [id=i-1]",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"delete","id_key":"id","id_value":"i-1"},"type":"apply_start"}`,
		},
		"progress": {
			msg:  UIApplyProgress(a, plans.Delete, 20*time.Second),
			want: uiHead + `"example_thing.a: Still destroying... [20s elapsed]",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"delete","elapsed_seconds":20},"type":"apply_progress"}`,
		},
		"errored": {
			msg:  UIApplyErrored(a, plans.Update, time.Minute+10*time.Second),
			want: uiHead + `"example_thing.a: Modifications errored after 1m10s",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"action":"update","elapsed_seconds":70},"type":"apply_errored"}`,
		},
		"refresh complete of a gone object": {
			msg:  UIRefreshComplete(a, cty.NullVal(withID.Type()), nil),
			want: uiHead + `"example_thing.a: Refresh complete",` + uiStampMod + `,"hook":{"resource":` + thingA + `},"type":"refresh_complete"}`,
		},
		"refresh start": {
			msg:  UIRefreshStart(a, withID, nil),
			want: uiHead + `"example_thing.a: Refreshing state... [id=i-1]",` + uiStampMod + `,"hook":{"resource":` + thingA + `,"id_key":"id","id_value":"i-1"},"type":"refresh_start"}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff([]string{tc.want}, encodeUI(t, tc.msg)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestUIOutputsAndDiagnostics: applied outputs carry types and the values
// of those not sensitive; diagnostics carry their range, and their source
// only when it is known. HTML characters are escaped as Terraform's logger
// escapes them.
func TestUIOutputsAndDiagnostics(t *testing.T) {
	out, err := AppliedOutputsUIMessage(map[string]*states.OutputValue{
		"pw":  {Value: str("hunter2"), Sensitive: true},
		"tag": {Value: str("<a&b>")},
	}, marks.Secrets{})
	if err != nil {
		t.Fatal(err)
	}
	rng := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 2, Column: 3, Byte: 6}, End: hcl.Pos{Line: 2, Column: 8, Byte: 11}}
	src := map[string][]byte{"main.tf": []byte("x {\n  bogus = 1\n}\n")}
	tests := map[string]struct {
		msg  UIMessage
		want string
	}{
		"outputs": {
			msg:  out,
			want: uiHead + `"Outputs: 2",` + uiStampMod + `,"outputs":{"pw":{"sensitive":true,"type":"string"},"tag":{"sensitive":false,"type":"string","value":"\u003ca\u0026b\u003e"}},"type":"outputs"}`,
		},
		"warning without a range": {
			msg:  UIDiagnosticMessage(diags.Diagnostic{Severity: diags.Warning, Summary: "Careful", Detail: "Why."}, nil, nil),
			want: `{"@level":"warn","@message":"Warning: Careful",` + uiStampMod + `,"diagnostic":{"severity":"warning","summary":"Careful","detail":"Why."},"type":"diagnostic"}`,
		},
		"error without its source": {
			msg:  UIDiagnosticMessage(diags.At(rng, "Bad", "Fix it."), nil, nil),
			want: `{"@level":"error","@message":"Error: Bad",` + uiStampMod + `,"diagnostic":{"severity":"error","summary":"Bad","detail":"Fix it.","range":{"filename":"main.tf","start":{"line":2,"column":3,"byte":6},"end":{"line":2,"column":8,"byte":11}}},"type":"diagnostic"}`,
		},
		"error with its source": {
			msg:  UIDiagnosticMessage(diags.At(rng, "Bad", "Fix it."), NewSourceIndex(src), nil),
			want: `{"@level":"error","@message":"Error: Bad",` + uiStampMod + `,"diagnostic":{"severity":"error","summary":"Bad","detail":"Fix it.","range":{"filename":"main.tf","start":{"line":2,"column":3,"byte":6},"end":{"line":2,"column":8,"byte":11}},"snippet":{"context":"x","code":"  bogus = 1","start_line":2,"highlight_start_offset":2,"highlight_end_offset":7,"values":[]}},"type":"diagnostic"}`,
		},
		"error with the values of its references": {
			msg:  UIDiagnosticMessage(withValues(diags.At(rng, "Bad", "Fix it."), diags.ExprValue{Traversal: "var.min", Statement: "is 3"}), NewSourceIndex(src), nil),
			want: `{"@level":"error","@message":"Error: Bad",` + uiStampMod + `,"diagnostic":{"severity":"error","summary":"Bad","detail":"Fix it.","range":{"filename":"main.tf","start":{"line":2,"column":3,"byte":6},"end":{"line":2,"column":8,"byte":11}},"snippet":{"context":"x","code":"  bogus = 1","start_line":2,"highlight_start_offset":2,"highlight_end_offset":7,"values":[{"traversal":"var.min","statement":"is 3"}]}},"type":"diagnostic"}`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff([]string{tc.want}, encodeUI(t, tc.msg)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func withValues(d diags.Diagnostic, vs ...diags.ExprValue) diags.Diagnostic {
	d.Values = vs
	return d
}
