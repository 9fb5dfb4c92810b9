package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// TestReadStored: a stored object is always upgraded (with the version it
// was stored at) before it is read, and a gone object is an answer in the
// result, not an error.
func TestReadStored(t *testing.T) {
	prior := obj(str("i-1"), str("n"), nullStr, cty.NumberIntVal(1))
	src := &states.ObjectSrc{AttrsJSON: []byte(`{"id":"i-1","name":"n"}`), SchemaVersion: 3, Status: states.ObjectReady}
	cases := map[string]struct {
		refresh     bool
		upgradeErr  bool
		read        cty.Value
		wantCalls   string
		wantGone    bool
		wantCurrent string // "upgraded", "new", "nil"
		wantErr     bool
	}{
		"UpgradeOnly":  {wantCalls: "upgrade v3", wantCurrent: "upgraded"},
		"Unchanged":    {refresh: true, read: prior, wantCalls: "upgrade v3, before, read", wantCurrent: "upgraded"},
		"Drifted":      {refresh: true, read: obj(str("i-1"), str("n"), nullStr, cty.NumberIntVal(7)), wantCalls: "upgrade v3, before, read", wantCurrent: "new"},
		"Gone":         {refresh: true, read: cty.NullVal(schema.ImpliedType()), wantCalls: "upgrade v3, before, read", wantGone: true, wantCurrent: "nil"},
		"UpgradeFails": {refresh: true, upgradeErr: true, wantCalls: "upgrade v3", wantCurrent: "nil", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var calls []string
			f := &fake{
				upgrade: func(r providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
					calls = append(calls, fmt.Sprintf("upgrade v%d", r.Version))
					if tc.upgradeErr {
						return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Cannot upgrade", "no.")}}
					}
					return providers.UpgradeResourceStateResponse{UpgradedState: prior}
				},
				read: func(r providers.ReadResourceRequest) providers.ReadResourceResponse {
					calls = append(calls, "read")
					return providers.ReadResourceResponse{NewState: tc.read, Private: r.Private}
				},
			}
			got, ds := ReadStored(context.Background(), target(f), src, ReadOptions{
				Refresh: tc.refresh, BeforeRefresh: func(*states.Object) { calls = append(calls, "before") },
			})
			if ds.HasErrors() != tc.wantErr {
				t.Fatalf("diagnostics %v", ds)
			}
			if s := strings.Join(calls, ", "); s != tc.wantCalls {
				t.Errorf("calls %q, want %q", s, tc.wantCalls)
			}
			if got.Gone != tc.wantGone {
				t.Errorf("gone %v, want %v", got.Gone, tc.wantGone)
			}
			switch cur := got.Current; {
			case tc.wantCurrent == "nil" && cur != nil,
				tc.wantCurrent == "upgraded" && cur != got.Upgraded,
				tc.wantCurrent == "new" && (cur == nil || cur == got.Upgraded):
				t.Errorf("current %#v, want %s", cur, tc.wantCurrent)
			}
		})
	}
}
