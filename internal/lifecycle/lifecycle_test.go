package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// diagView is what these tests compare of a diagnostic: severity, summary
// and location. Details are prose; only what must or must not be in them
// is checked separately.
type diagView struct {
	Error   bool
	Summary string
	At      string
}

func view(ds diags.Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		v := diagView{Error: d.Severity == diags.Error, Summary: d.Summary}
		if d.Subject != nil {
			v.At = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, v)
	}
	return out
}

func errorView(summary string) []diagView { return []diagView{{Error: true, Summary: summary}} }

var secretMark = cty.NewValueMarks(configschema.SensitiveMark)

// echoPlan plans the proposed new state, with unknown id and a default
// size, as most providers do.
func echoPlan(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	attrs := r.ProposedNewState.AsValueMap()
	if attrs["id"].IsNull() {
		attrs["id"] = unkStr
	}
	if attrs["size"].IsNull() {
		attrs["size"] = cty.NumberIntVal(1)
	}
	return providers.PlanResourceChangeResponse{PlannedState: cty.ObjectVal(attrs), PlannedPrivate: []byte("planned")}
}

func TestPlan(t *testing.T) {
	config := obj(nullStr, str("n"), str("hunter2"), nullNum)
	cases := map[string]struct {
		reason    string
		config    cty.Value
		plan      func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
		wantDiags []diagView
		// wantMarked lists the attributes the planned value must mark.
		wantMarked []string
	}{
		"Valid": {
			reason:     "the schema's sensitive attribute is marked in the planned value",
			config:     config,
			plan:       echoPlan,
			wantMarked: []string{"secret"},
		},
		"ConfigMarksCarriedOver": {
			reason:     "a value marked in the configuration (a sensitive variable) stays marked in the plan",
			config:     obj(nullStr, str("n").WithMarks(secretMark), nullStr, nullNum),
			plan:       echoPlan,
			wantMarked: []string{"name", "secret"},
		},
		"ChangedConfiguredValue": {
			config: config,
			plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				resp := echoPlan(r)
				attrs := resp.PlannedState.AsValueMap()
				attrs["name"] = str("other")
				resp.PlannedState = cty.ObjectVal(attrs)
				return resp
			},
			wantDiags: errorView("Provider produced invalid plan"),
		},
		"LegacyTypeSystemExcused": {
			reason: "SDKv2 providers break the plan rules and Terraform lets them",
			config: config,
			plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				resp := echoPlan(r)
				attrs := resp.PlannedState.AsValueMap()
				attrs["name"] = str("other")
				resp.PlannedState, resp.LegacyTypeSystem = cty.ObjectVal(attrs), true
				return resp
			},
			wantMarked: []string{"secret"},
		},
		"ProviderErrorLocated": {
			reason: "a provider diagnostic with an attribute path points at the attribute in the block",
			config: config,
			plan: func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				return providers.PlanResourceChangeResponse{Diagnostics: diags.Diagnostics{diags.AttributeError(cty.GetAttrPath("name"), "Bad name", "no")}}
			},
			wantDiags: []diagView{{Error: true, Summary: "Bad name", At: "main.tf:2:10"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{plan: tc.plan}
			got, ds := Plan(context.Background(), target(f), cty.NullVal(schema.ImpliedType()), nil, tc.config)
			if diff := cmp.Diff(tc.wantDiags, view(ds)); diff != "" {
				t.Fatalf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if f.planReq.Config.ContainsMarked() || f.planReq.ProposedNewState.ContainsMarked() {
				t.Errorf("the provider was sent marked values")
			}
			if ds.HasErrors() {
				if got != nil {
					t.Errorf("an invalid plan was returned")
				}
				for _, d := range ds {
					if strings.Contains(d.Detail, "hunter2") {
						t.Errorf("a sensitive value is in the message: %s", d.Detail)
					}
				}
				return
			}
			var marked []string
			for _, name := range []string{"id", "name", "secret", "size"} {
				if got.Value.GetAttr(name).IsMarked() {
					marked = append(marked, name)
				}
			}
			if diff := cmp.Diff(tc.wantMarked, marked); diff != "" {
				t.Errorf("%s\nmarked attributes: -want +got:\n%s", tc.reason, diff)
			}
			if string(got.Private) != "planned" {
				t.Errorf("planned private = %q", got.Private)
			}
		})
	}
}

func TestFinalPlanAndApply(t *testing.T) {
	config := obj(nullStr, str("n"), nullStr, nullNum)
	saved := obj(unkStr, str("n"), nullStr, cty.NumberIntVal(1))
	applyEcho := func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
		attrs := r.PlannedState.AsValueMap()
		attrs["id"] = str("i-1")
		return providers.ApplyResourceChangeResponse{NewState: cty.ObjectVal(attrs), Private: []byte("after")}
	}
	cases := map[string]struct {
		reason    string
		plan      func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
		apply     func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
		wantDiags []diagView
		wantNew   cty.Value
	}{
		"Consistent": {
			plan: echoPlan, apply: applyEcho,
			wantNew: obj(str("i-1"), str("n"), nullStr, cty.NumberIntVal(1)),
		},
		"FinalPlanDiffersFromSaved": {
			reason: "size was known as 1 in the saved plan; the final plan may not change it",
			plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				resp := echoPlan(r)
				attrs := resp.PlannedState.AsValueMap()
				attrs["size"] = cty.NumberIntVal(2)
				resp.PlannedState = cty.ObjectVal(attrs)
				return resp
			},
			wantDiags: errorView("Provider produced inconsistent final plan"),
		},
		"ResultDiffersFromPlan": {
			plan: echoPlan,
			apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				resp := applyEcho(r)
				attrs := resp.NewState.AsValueMap()
				attrs["name"] = str("renamed")
				resp.NewState = cty.ObjectVal(attrs)
				return resp
			},
			wantDiags: errorView("Provider produced inconsistent result after apply"),
			wantNew:   obj(str("i-1"), str("renamed"), nullStr, cty.NumberIntVal(1)),
		},
		"UnknownLeft": {
			plan: echoPlan,
			apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return providers.ApplyResourceChangeResponse{NewState: r.PlannedState}
			},
			wantDiags: errorView("Provider produced inconsistent result after apply"),
			wantNew:   saved,
		},
		"ErrorWithPartialObject": {
			reason: "an object that came back with an error is returned, so it can be kept tainted",
			plan:   echoPlan,
			apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				resp := applyEcho(r)
				resp.Diagnostics = diags.Diagnostics{diags.Errorf("Half done", "x")}
				return resp
			},
			// A pathless diagnostic points at the body's opening brace, as Terraform's do.
			wantDiags: []diagView{{Error: true, Summary: "Half done", At: "main.tf:1:27"}},
			wantNew:   obj(str("i-1"), str("n"), nullStr, cty.NumberIntVal(1)),
		},
		"NullResult": {
			plan: echoPlan,
			apply: func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return providers.ApplyResourceChangeResponse{}
			},
			wantNew: cty.NullVal(schema.ImpliedType()),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{plan: tc.plan, apply: tc.apply}
			tg := target(f)
			p, ds := FinalPlan(context.Background(), tg, cty.NullVal(schema.ImpliedType()), nil, config, saved)
			if ds.HasErrors() {
				if diff := cmp.Diff(tc.wantDiags, view(ds)); diff != "" {
					t.Fatalf("%s\nfinal plan diagnostics: -want +got:\n%s", tc.reason, diff)
				}
				return
			}
			got, ads := Apply(context.Background(), tg, p)
			if diff := cmp.Diff(tc.wantDiags, view(ads)); diff != "" {
				t.Fatalf("%s\napply diagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if !got.Value.RawEquals(schema.MarkSensitive(tc.wantNew)) {
				t.Errorf("%s\nnew value = %#v", tc.reason, got.Value)
			}
			if string(f.applyReq.PlannedPrivate) != "planned" {
				t.Errorf("apply was sent private %q, not the final plan's", f.applyReq.PlannedPrivate)
			}
			if !got.Value.IsNull() && !ads.HasErrors() && string(got.Private) != "after" {
				t.Errorf("the private data apply returned was dropped: %q", got.Private)
			}
		})
	}
}

func TestDeleteAndPlanDestroy(t *testing.T) {
	prior := obj(str("i-1"), str("n"), nullStr, cty.NumberIntVal(1))
	cases := map[string]struct {
		plan      func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse
		apply     func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse
		wantDiags []diagView
	}{
		"Deleted": {
			plan: func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				return providers.PlanResourceChangeResponse{PlannedPrivate: []byte("destroying")}
			},
			apply: func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return providers.ApplyResourceChangeResponse{NewState: cty.NullVal(schema.ImpliedType())}
			},
		},
		"PlanKeepsObject": {
			plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				return providers.PlanResourceChangeResponse{PlannedState: r.PriorState}
			},
			wantDiags: errorView("Provider produced invalid plan"),
		},
		"DeleteReturnsObject": {
			plan: func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				return providers.PlanResourceChangeResponse{}
			},
			apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return providers.ApplyResourceChangeResponse{NewState: r.PriorState}
			},
			wantDiags: errorView("Provider produced inconsistent result after apply"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{plan: tc.plan, apply: tc.apply}
			tg := target(f)
			private, ds := PlanDestroy(context.Background(), tg, prior, []byte("prior"))
			if !ds.HasErrors() {
				if !f.planReq.ProposedNewState.IsNull() || !f.planReq.Config.IsNull() || string(f.planReq.PriorPrivate) != "prior" {
					t.Errorf("a destroy plan must propose null with null configuration and the prior private data: %#v", f.planReq)
				}
				ds = Delete(context.Background(), tg, prior, private)
				if !f.applyReq.PlannedState.IsNull() || string(f.applyReq.PlannedPrivate) != string(private) {
					t.Errorf("delete must plan null and send the destroy plan's private data: %#v", f.applyReq)
				}
			}
			if diff := cmp.Diff(tc.wantDiags, view(ds)); diff != "" {
				t.Errorf("diagnostics: -want +got:\n%s", diff)
			}
		})
	}
}

func TestRefreshAndUpgrade(t *testing.T) {
	prior := obj(str("i-1"), str("n"), str("hunter2"), cty.NumberIntVal(1))
	src := &states.ObjectSrc{AttrsJSON: []byte(`{}`), AttrSensitivePaths: []cty.Path{cty.GetAttrPath("name")}, Status: states.ObjectReady, Private: []byte("p")}
	cases := map[string]struct {
		reason     string
		upgraded   cty.Value
		read       cty.Value
		wantDiags  []diagView
		wantResult string // "same", "gone", "new"
	}{
		"Unchanged":   {upgraded: prior, read: prior, wantResult: "same"},
		"Gone":        {upgraded: prior, read: cty.NullVal(schema.ImpliedType()), wantResult: "gone"},
		"Drifted":     {upgraded: prior, read: obj(str("i-1"), str("n"), str("hunter2"), cty.NumberIntVal(5)), wantResult: "new"},
		"ReadUnknown": {upgraded: prior, read: obj(unkStr, str("n"), nullStr, nullNum), wantDiags: errorView("Provider produced invalid object")},
		"ReadWrongType": {
			upgraded: prior, read: cty.ObjectVal(map[string]cty.Value{"id": str("x")}),
			wantDiags: errorView("Provider produced invalid object"),
		},
		"UpgradeUnknown": {upgraded: obj(unkStr, str("n"), nullStr, nullNum), wantDiags: errorView("Provider produced invalid object")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{
				upgrade: func(providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
					return providers.UpgradeResourceStateResponse{UpgradedState: tc.upgraded}
				},
				read: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
					if r.PriorState.ContainsMarked() {
						t.Errorf("ReadResource was sent a marked value")
					}
					return providers.ReadResourceResponse{NewState: tc.read, Private: r.Private}
				},
			}
			tg := target(f)
			o, ds := UpgradeState(context.Background(), tg, src)
			if !ds.HasErrors() {
				if !o.Value.GetAttr("name").IsMarked() || !o.Value.GetAttr("secret").IsMarked() {
					t.Errorf("state's and schema's sensitive marks must be applied: %#v", o.Value)
				}
				var r *states.Object
				r, ds = Refresh(context.Background(), tg, o)
				got := map[bool]string{true: "same", false: "new"}[r == o]
				if r == nil {
					got = "gone"
				}
				if !ds.HasErrors() && got != tc.wantResult {
					t.Errorf("result is %s, want %s", got, tc.wantResult)
				}
				if got == "new" && !r.Value.GetAttr("name").IsMarked() {
					t.Errorf("a refreshed object keeps the prior object's marks")
				}
			}
			if diff := cmp.Diff(tc.wantDiags, view(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestReadData(t *testing.T) {
	config := obj(nullStr, str("n"), nullStr, nullNum)
	cases := map[string]struct {
		reason    string
		answer    cty.Value
		wantDiags []diagView
	}{
		"Valid":             {answer: obj(str("d"), str("n"), nullStr, cty.NumberIntVal(1))},
		"ConfiguredChanged": {reason: "a data source must keep what the configuration set", answer: obj(str("d"), str("x"), nullStr, nullNum), wantDiags: errorView("Provider produced invalid object")},
		"Unknown":           {answer: obj(unkStr, str("n"), nullStr, nullNum), wantDiags: errorView("Provider produced invalid object")},
		"Null":              {answer: cty.NullVal(schema.ImpliedType()), wantDiags: errorView("Provider produced invalid object")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{readData: func(providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
				return providers.ReadDataSourceResponse{State: tc.answer}
			}}
			tg := target(f)
			tg.ProviderMeta = cty.ObjectVal(map[string]cty.Value{"module_name": str("net")})
			got, ds := ReadData(context.Background(), tg, config)
			if diff := cmp.Diff(tc.wantDiags, view(ds)); diff != "" {
				t.Fatalf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if !f.readDataReq.ProviderMeta.RawEquals(tg.ProviderMeta) {
				t.Errorf("provider_meta was not sent: %#v", f.readDataReq.ProviderMeta)
			}
			if !ds.HasErrors() && !got.RawEquals(schema.MarkSensitive(tc.answer)) {
				t.Errorf("got %#v", got)
			}
		})
	}
}

func TestPlannedData(t *testing.T) {
	got := PlannedData(schema, obj(nullStr, str("n").WithMarks(secretMark), nullStr, cty.NumberIntVal(2)))
	want := obj(unkStr, str("n").WithMarks(secretMark), nullStr.WithMarks(secretMark), cty.NumberIntVal(2))
	if !got.RawEquals(want) {
		t.Errorf("computed attributes left null are unknown, the rest as configured, marks kept:\n got %#v\nwant %#v", got, want)
	}
}

func TestImport(t *testing.T) {
	good := obj(str("i-1"), str("n"), nullStr, cty.NumberIntVal(1))
	cases := map[string]struct {
		answer    []providers.ImportedResource
		wantDiags []diagView
		wantNone  bool
	}{
		"One":       {answer: []providers.ImportedResource{{TypeName: "test_thing", State: good, Private: []byte("p")}}},
		"None":      {wantNone: true},
		"NullState": {answer: []providers.ImportedResource{{TypeName: "test_thing", State: cty.NullVal(schema.ImpliedType())}}, wantNone: true},
		"Two": {
			answer:    []providers.ImportedResource{{TypeName: "test_thing", State: good}, {TypeName: "test_thing", State: good}},
			wantDiags: errorView("Provider produced invalid object"),
		},
		"OtherType": {answer: []providers.ImportedResource{{TypeName: "test_other", State: good}}, wantDiags: errorView("Provider produced invalid object")},
		"Unknown":   {answer: []providers.ImportedResource{{TypeName: "test_thing", State: obj(unkStr, str("n"), nullStr, nullNum)}}, wantDiags: errorView("Provider produced invalid object")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{imp: func(r providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
				if r.ID != "i-1" || r.TypeName != "test_thing" {
					t.Errorf("request: %#v", r)
				}
				return providers.ImportResourceStateResponse{ImportedResources: tc.answer}
			}}
			got, ds := Import(context.Background(), target(f), "i-1")
			if diff := cmp.Diff(tc.wantDiags, view(ds)); diff != "" {
				t.Fatalf("diagnostics: -want +got:\n%s", diff)
			}
			if tc.wantNone != (got == nil && !ds.HasErrors()) {
				t.Fatalf("got %#v, %v; want no object and no error: %v", got, ds, tc.wantNone)
			}
			if !ds.HasErrors() && !tc.wantNone && (!got.Value.GetAttr("secret").IsMarked() || string(got.Private) != "p" || got.Status != states.ObjectReady) {
				t.Errorf("imported object: %#v", got)
			}
		})
	}
}

func TestValidateConfig(t *testing.T) {
	f := &fake{}
	tg := target(f)
	ValidateConfig(context.Background(), tg, obj(nullStr, str("n").WithMarks(secretMark), nullStr, nullNum))
	data := target(f)
	data.Addr.ResourceInstance.Resource.Resource.Mode = 'D'
	ValidateConfig(context.Background(), data, obj(nullStr, str("n"), nullStr, nullNum))
	if diff := cmp.Diff([]string{"resource test_thing", "data test_thing"}, f.validated); diff != "" {
		t.Errorf("validation calls: -want +got:\n%s", diff)
	}
	if f.validateCfg.ContainsMarked() {
		t.Errorf("validation was sent a marked value")
	}
}

func TestContractError(t *testing.T) {
	d := ContractError("Provider produced invalid plan", provAdr, thing.Instance(nil).Absolute(nil).Object("0badcafe"), "planned an invalid value for .x")
	for _, want := range []string{`Provider "registry.terraform.io/hashicorp/test"`, "test_thing.a (deposed object 0badcafe)", "planned an invalid value for .x", "This is a bug in the provider"} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail lacks %q: %s", want, d.Detail)
		}
	}
	if d.Address != "test_thing.a" || d.Severity != diags.Error {
		t.Errorf("diagnostic: %#v", d)
	}
}

// TestCopiesMarked: a copy the schema declares (tags_all of tags) is
// sensitive wherever it holds a sensitive part of its source: in the plan
// when known then, in the applied object when known only then, and in a
// refreshed object; the marks handed on for storing are the value's.
func TestCopiesMarked(t *testing.T) {
	copySchema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"tags":     {Type: cty.List(cty.String), Optional: true},
			"tags_all": {Type: cty.List(cty.String), Computed: true},
		},
		Copies: []configschema.Copy{{From: "tags", To: "tags_all"}},
	}
	val := func(id, tags, all cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "tags": tags, "tags_all": all})
	}
	secret := str("hunter2").Mark(configschema.SensitiveMark)
	config := val(nullStr, cty.ListVal([]cty.Value{secret}), cty.NullVal(cty.List(cty.String)))
	// Default tags first, so the copy is found by value, not by place.
	merged := cty.ListVal([]cty.Value{str("core"), str("hunter2")})
	markedAll := cty.ListVal([]cty.Value{str("core"), secret})
	cases := map[string]struct {
		reason               string
		plannedAll           cty.Value
		wantPlanned, wantNew cty.Value
	}{
		"known in the plan": {
			reason:      "the plan's copy is marked, and so is the applied object's",
			plannedAll:  merged,
			wantPlanned: val(unkStr, cty.ListVal([]cty.Value{secret}), markedAll),
			wantNew:     val(str("i-1"), cty.ListVal([]cty.Value{secret}), markedAll),
		},
		"known after apply": {
			reason:      "a copy learned in apply is marked once known",
			plannedAll:  cty.UnknownVal(cty.List(cty.String)),
			wantPlanned: val(unkStr, cty.ListVal([]cty.Value{secret}), cty.UnknownVal(cty.List(cty.String))),
			wantNew:     val(str("i-1"), cty.ListVal([]cty.Value{secret}), markedAll),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fake{
				plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
					return providers.PlanResourceChangeResponse{PlannedState: val(unkStr, r.Config.GetAttr("tags"), tc.plannedAll)}
				},
				apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
					return providers.ApplyResourceChangeResponse{NewState: val(str("i-1"), r.PlannedState.GetAttr("tags"), merged)}
				},
				read: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
					all := cty.ListVal([]cty.Value{str("hunter2"), str("core")})
					return providers.ReadResourceResponse{NewState: val(str("i-1"), r.PriorState.GetAttr("tags"), all)}
				},
			}
			tg := target(f)
			tg.Schema = copySchema
			p, ds := Plan(context.Background(), tg, cty.NullVal(copySchema.ImpliedType()), nil, config)
			if ds.HasErrors() {
				t.Fatalf("plan: %v", view(ds))
			}
			if !p.Value.RawEquals(tc.wantPlanned) {
				t.Errorf("%s\nplanned %#v\nwant    %#v", tc.reason, p.Value, tc.wantPlanned)
			}
			got, ds := Apply(context.Background(), tg, p)
			if ds.HasErrors() {
				t.Fatalf("apply: %v", view(ds))
			}
			if !got.Value.RawEquals(tc.wantNew) {
				t.Errorf("%s\nnew  %#v\nwant %#v", tc.reason, got.Value, tc.wantNew)
			}
			if u, pvm := got.Unmarked(); !u.MarkWithPaths(pvm).RawEquals(got.Value) {
				t.Errorf("the marks handed on for storing are not the value's: %#v", pvm)
			}
			r, ds := Refresh(context.Background(), tg, &states.Object{Value: got.Value, Status: states.ObjectReady})
			if ds.HasErrors() {
				t.Fatalf("refresh: %v", view(ds))
			}
			if want := cty.ListVal([]cty.Value{secret, str("core")}); !r.Value.GetAttr("tags_all").RawEquals(want) {
				t.Errorf("a refreshed copy that moved is marked where the secret now is: %#v", r.Value.GetAttr("tags_all"))
			}
		})
	}
}

// TestProviderCopiesMarked: a provider that copies a sensitive value of its
// own configuration (a default tag) into an object marks nothing, the
// protocol carrying no marks; a copy declared FromProvider is sensitive in
// the plan, after apply and after refresh, though the resource's own tags
// hold no secret.
func TestProviderCopiesMarked(t *testing.T) {
	copySchema := &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"id":       {Type: cty.String, Computed: true},
			"tags":     {Type: cty.List(cty.String), Optional: true},
			"tags_all": {Type: cty.List(cty.String), Computed: true},
		},
		Copies: []configschema.Copy{{From: "tags", To: "tags_all", FromProvider: "default_tags"}},
	}
	val := func(id, tags, all cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "tags": tags, "tags_all": all})
	}
	secret := str("hunter2").Mark(configschema.SensitiveMark)
	plainTags := cty.ListVal([]cty.Value{str("plain")})
	merged := cty.ListVal([]cty.Value{str("plain"), str("hunter2")})
	markedAll := cty.ListVal([]cty.Value{str("plain"), secret})
	f := &fake{
		plan: func(r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
			return providers.PlanResourceChangeResponse{PlannedState: val(unkStr, r.Config.GetAttr("tags"), merged)}
		},
		apply: func(r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
			return providers.ApplyResourceChangeResponse{NewState: val(str("i-1"), r.PlannedState.GetAttr("tags"), merged)}
		},
		read: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
			return providers.ReadResourceResponse{NewState: val(str("i-1"), r.PriorState.GetAttr("tags"), merged)}
		},
	}
	tg := target(f)
	tg.Schema = copySchema
	tg.ProviderConfig = cty.ObjectVal(map[string]cty.Value{
		"default_tags": cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"token": secret})}),
	})
	p, ds := Plan(context.Background(), tg, cty.NullVal(copySchema.ImpliedType()), nil, val(nullStr, plainTags, cty.NullVal(cty.List(cty.String))))
	if ds.HasErrors() {
		t.Fatalf("plan: %v", view(ds))
	}
	if want := val(unkStr, plainTags, markedAll); !p.Value.RawEquals(want) {
		t.Errorf("planned %#v\nwant    %#v", p.Value, want)
	}
	got, ds := Apply(context.Background(), tg, p)
	if ds.HasErrors() {
		t.Fatalf("apply: %v", view(ds))
	}
	if want := val(str("i-1"), plainTags, markedAll); !got.Value.RawEquals(want) {
		t.Errorf("new  %#v\nwant %#v", got.Value, want)
	}
	r, ds := Refresh(context.Background(), tg, &states.Object{Value: got.Value, Status: states.ObjectReady})
	if ds.HasErrors() {
		t.Fatalf("refresh: %v", view(ds))
	}
	if !r.Value.GetAttr("tags_all").RawEquals(markedAll) {
		t.Errorf("refreshed tags_all %#v, want the default tag marked", r.Value.GetAttr("tags_all"))
	}
	tg.ProviderConfig = cty.NilVal
	if p, _ := Plan(context.Background(), tg, cty.NullVal(copySchema.ImpliedType()), nil, val(nullStr, plainTags, cty.NullVal(cty.List(cty.String)))); p.Value.GetAttr("tags_all").ContainsMarked() {
		t.Errorf("without the provider's configuration the copy is marked: %#v", p.Value)
	}
}

// TestProviderErrorsRedacted: a provider's error text names what it was
// asked about; the secrets of the values it was given (a name built from a
// sensitive variable) are redacted from it, at every step.
func TestProviderErrorsRedacted(t *testing.T) {
	secretName := str("app-hunter2").Mark(configschema.SensitiveMark)
	fail := diags.Diagnostics{diags.Errorf("Cannot create app-hunter2", "Resource with identifier 'app-hunter2' already exists.")}
	want := diags.Diagnostic{Severity: diags.Error, Summary: "Cannot create (sensitive value)", Detail: "Resource with identifier '(sensitive value)' already exists."}
	prior := obj(str("i-1"), secretName, nullStr, nullNum)
	steps := map[string]func(f *fake, tg *Target) diags.Diagnostics{
		"plan": func(f *fake, tg *Target) diags.Diagnostics {
			f.plan = func(providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
				return providers.PlanResourceChangeResponse{Diagnostics: fail}
			}
			_, ds := Plan(context.Background(), tg, cty.NullVal(schema.ImpliedType()), nil, obj(nullStr, secretName, nullStr, nullNum))
			return ds
		},
		"apply": func(f *fake, tg *Target) diags.Diagnostics {
			f.plan = echoPlan
			f.apply = func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return providers.ApplyResourceChangeResponse{Diagnostics: fail}
			}
			p, ds := Plan(context.Background(), tg, cty.NullVal(schema.ImpliedType()), nil, obj(nullStr, secretName, nullStr, nullNum))
			if ds.HasErrors() {
				return ds
			}
			_, ds = Apply(context.Background(), tg, p)
			return ds
		},
		"refresh": func(f *fake, tg *Target) diags.Diagnostics {
			f.read = func(providers.ReadResourceRequest) providers.ReadResourceResponse {
				return providers.ReadResourceResponse{Diagnostics: fail}
			}
			_, ds := Refresh(context.Background(), tg, &states.Object{Value: prior, Status: states.ObjectReady})
			return ds
		},
		"delete": func(f *fake, tg *Target) diags.Diagnostics {
			f.apply = func(providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
				return providers.ApplyResourceChangeResponse{Diagnostics: fail}
			}
			return Delete(context.Background(), tg, prior, nil)
		},
	}
	for name, step := range steps {
		t.Run(name, func(t *testing.T) {
			f := &fake{}
			ds := step(f, target(f))
			if len(ds) != 1 || ds[0].Summary != want.Summary || ds[0].Detail != want.Detail {
				t.Errorf("diagnostics %+v, want summary %q, detail %q", ds, want.Summary, want.Detail)
			}
			if fail[0].Detail != "Resource with identifier 'app-hunter2' already exists." {
				t.Error("the provider's own diagnostics were changed")
			}
		})
	}
}
