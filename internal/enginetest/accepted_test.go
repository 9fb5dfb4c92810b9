package enginetest

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// TestAcceptedCreate: a create the provider reports accepted is recorded,
// durably, before the provider goes on waiting; how the call ends then
// decides what state keeps. Without this a run killed or cut off while a
// create runs remotely forgets it, and the next run creates it again.
func TestAcceptedCreate(t *testing.T) {
	const pending = "pending"
	withID := func(v cty.Value, id cty.Value) cty.Value {
		m := v.AsValueMap()
		m["id"] = id
		return cty.ObjectVal(m)
	}
	fail := func(resp *providers.ApplyResourceChangeResponse) {
		resp.Diagnostics = resp.Diagnostics.Append(diags.Errorf("Cannot create", "the API went away"))
	}
	for _, tc := range []struct {
		name string
		// end rewrites the response after the create was recorded.
		end         func(resp *providers.ApplyResourceChangeResponse)
		wantObject  bool
		wantStatus  states.ObjectStatus
		wantPrivate string
		wantID      cty.Value
	}{{
		name: "outcome unknown: kept pending, not tainted",
		end: func(resp *providers.ApplyResourceChangeResponse) {
			resp.NewState, resp.Private = withID(resp.NewState, cty.NullVal(cty.String)), []byte(pending)
			fail(resp)
		},
		wantObject: true, wantStatus: states.ObjectReady, wantPrivate: pending, wantID: cty.NullVal(cty.String),
	}, {
		name: "failed for good: the pending record is removed",
		end: func(resp *providers.ApplyResourceChangeResponse) {
			resp.NewState = cty.NullVal(resp.NewState.Type())
			fail(resp)
		},
	}, {
		name: "failed after making the object: tainted",
		end: func(resp *providers.ApplyResourceChangeResponse) {
			resp.Private = []byte("named")
			fail(resp)
		},
		wantObject: true, wantStatus: states.ObjectTainted, wantPrivate: "named", wantID: cty.StringVal("thing-1"),
	}, {
		name:       "succeeded: the pending record is replaced",
		end:        func(*providers.ApplyResourceChangeResponse) {},
		wantObject: true, wantStatus: states.ObjectReady, wantID: cty.StringVal("thing-1"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := New(map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`})
			w := &MemoryWriter{State: states.NewState()}
			addr := mustAddr("test_thing.a")
			recorded := false
			tp := &TestProvider{CreateHook: func(rec providers.CreateRecorder, resp *providers.ApplyResourceChangeResponse) {
				if rec == nil {
					t.Fatal("the engine gave the create no recorder")
				}
				if err := rec([]byte(pending)); err != nil {
					t.Fatal(err)
				}
				w.With(func(st *states.State) {
					cur := st.ResourceInstance(addr)
					recorded = cur != nil && cur.Current != nil && string(cur.Current.Private) == pending && cur.Current.Status == states.ObjectReady
				})
				tc.end(resp)
			}}
			h.WithTestProvider(tp)
			p, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			applying.Apply(context.Background(), applying.Options{
				Plan: p, Config: h.Config, Providers: providers.NewLibrary(h.Providers), Funcs: funcs.Table("."), State: w,
			})
			if !recorded {
				t.Error("the accepted create was not in state, pending, when the recorder returned")
			}
			ri := w.State.ResourceInstance(addr)
			if !tc.wantObject {
				if ri != nil && ri.Current != nil {
					t.Fatalf("state keeps %s; want no object", ri.Current.AttrsJSON)
				}
				return
			}
			if ri == nil || ri.Current == nil {
				t.Fatal("no object in state")
			}
			cur := ri.Current
			if cur.Status != tc.wantStatus || string(cur.Private) != tc.wantPrivate {
				t.Errorf("status %v private %q, want %v %q", cur.Status, cur.Private, tc.wantStatus, tc.wantPrivate)
			}
			obj, err := cur.Decode(thingSchema.ImpliedType())
			if err != nil {
				t.Fatal(err)
			}
			if id := obj.Value.GetAttr("id"); !id.RawEquals(tc.wantID) {
				t.Errorf("id %#v, want %#v", id, tc.wantID)
			}
		})
	}
}
