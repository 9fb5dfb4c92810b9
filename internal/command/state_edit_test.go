package command

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// TestMoveInstanceKeepsObject pins that state mv of one instance carries
// its object to the destination, whether the source resource keeps other
// instances or not, and within one resource (c[1] to c[0]) as well.
func TestMoveInstanceKeepsObject(t *testing.T) {
	tests := map[string]struct {
		reason    string
		instances []string
		src, dst  string
	}{
		"last instance, same resource": {reason: "the source resource disappears with its last instance", instances: []string{"terraform_data.c[1]"}, src: "terraform_data.c[1]", dst: "terraform_data.c[0]"},
		"one of two, other resource":   {reason: "the source resource keeps an instance", instances: []string{"terraform_data.c[0]", "terraform_data.c[1]"}, src: "terraform_data.c[1]", dst: "terraform_data.d"},
		"single to indexed":            {reason: "no key to a count key", instances: []string{"terraform_data.a"}, src: "terraform_data.a", dst: "terraform_data.b[\"k\"]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			st := states.NewState()
			for _, a := range tc.instances {
				st.SetResourceInstanceCurrent(mustInstance(t, a), &states.ObjectSrc{AttrsJSON: []byte(`{"id":"` + a + `"}`)}, addrs.AbsProviderConfig{})
			}
			src, dst := mustInstance(t, tc.src), mustInstance(t, tc.dst)
			if n, ds := moveInstance(st, src, dst); ds.HasErrors() || n != 1 {
				t.Fatalf("moveInstance: %d moved, %v", n, ds.Error())
			}
			if st.ResourceInstance(src) != nil {
				t.Errorf("%s still in state (%s)", src, tc.reason)
			}
			got := st.ResourceInstance(dst)
			if got == nil || got.Current == nil || string(got.Current.AttrsJSON) != `{"id":"`+tc.src+`"}` {
				t.Errorf("%s does not hold %s's object (%s): %+v", dst, src, tc.reason, got)
			}
		})
	}
}

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatalf("%s: %s", s, ds.Error())
	}
	return a
}
