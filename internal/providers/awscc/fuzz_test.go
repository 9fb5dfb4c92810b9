package awscc

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// FuzzStateFromJSON: any model Cloud Control could return converts to a
// value or an error, never a panic, with or without prior state, and a
// value converts back to a desired state.
func FuzzStateFromJSON(f *testing.F) {
	rt, ty := thing(f)
	prior := tfValue(f, ty, `{"tags":[{"key":"a","value":"1"}],"rules":[{"rule_name":"r","secret":"s"}],"zones":["x"],"password":"p","policy":"{}"}`)
	for _, seed := range []string{
		`{}`, `{"Tags":[{"Key":"a","Value":"1"}],"Zones":["x","y"]}`, `{"Policy":{"a":[1,2]},"Quantity":"7"}`,
		`{"Rules":[{"RuleName":"r","RuleArn":"arn"}],"Labels":{"a":"b"}}`, `{"Config":{"Level":1.5}}`, `{"Steps":null}`,
	} {
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, src string, withPrior bool) {
		v, err := decodeJSON([]byte(src))
		if err != nil {
			return
		}
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		p := tftypes.NewValue(ty, nil)
		if withPrior {
			p = prior
		}
		got, err := stateFromJSON(rt.Attributes, ty, m, p)
		if err != nil {
			return
		}
		if _, err := desiredState(rt.Attributes, got, toOptions{}); err != nil {
			t.Fatalf("a value read from %s does not convert back: %v", src, err)
		}
	})
}
