package awscc

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/google/go-cmp/cmp"
)

// TestAnnotate: the engine's schema masks write-only properties at any
// depth without declaring them Sensitive (as awscc), and declares tags_all
// a copy of the tags.
func TestAnnotate(t *testing.T) {
	p, err := New("testdata/translate")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	resp := inst.GetProviderSchema(context.Background())
	for kind, s := range map[string]*configschema.Block{
		"resource":    resp.ResourceTypes["awscc_test_thing"].Block,
		"data source": resp.DataSources["awscc_test_thing"].Block,
	} {
		if s.HasSensitive() {
			t.Errorf("%s: an attribute is Sensitive; awscc marks none", kind)
		}
		for _, path := range [][]string{{"password"}, {"rules", "secret"}, {"code", "zip_file"}, {"code", "s3_key"}, {"secrets", "value"}} {
			a := s.Attributes[path[0]]
			for _, name := range path[1:] {
				a = a.NestedType.Attributes[name]
			}
			if !a.Masked {
				t.Errorf("%s: %v is write-only but not masked", kind, path)
			}
		}
		if s.Attributes["thing_name"].Masked {
			t.Errorf("%s: thing_name is masked", kind)
		}
	}
	// The write-only twin of the top-level password.
	if a := resp.ResourceTypes["awscc_test_thing"].Block.Attributes["password_wo"]; a == nil || !a.WriteOnly || !a.Masked || a.Sensitive {
		t.Errorf("password_wo = %+v, want a masked write-only attribute", a)
	}
	if a := resp.ResourceTypes["awscc_test_thing"].Block.Attributes["password_wo_version"]; a == nil || a.WriteOnly || !a.Optional {
		t.Errorf("password_wo_version = %+v, want an optional attribute", a)
	}
	want := []configschema.Copy{{From: "tags", To: "tags_all", FromProvider: "default_tags"}}
	if diff := cmp.Diff(want, resp.ResourceTypes["awscc_test_thing"].Block.Copies); diff != "" {
		t.Errorf("copies (-want +got):\n%s", diff)
	}
}
