package awscc

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func tagTypes(t *testing.T) *cfnschema.Catalog {
	t.Helper()
	c, ds := cfnschema.LoadDir("testdata/tags")
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return c
}

func TestTagShape(t *testing.T) {
	c := tagTypes(t)
	cases := map[string]struct {
		reason string
		want   bool
	}{
		"AWS::Test::Mapped":     {reason: "A map of strings takes default tags.", want: true},
		"AWS::Test::Odd":        {reason: "A JSON-string tags attribute takes none.", want: false},
		"AWS::Test::Untaggable": {reason: "taggable false takes none.", want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rt := c.Type(name)
			_, ok := tagShapeOf(rt)
			s := rt.ResourceSchema()
			addTagsAll(rt, &s)
			_, hasAll := s.Attributes[tagsAllName]
			if ok != tc.want || hasAll != tc.want {
				t.Errorf("%s\nshape %t, tags_all %t; want %t", tc.reason, ok, hasAll, tc.want)
			}
		})
	}
}

// TestSplitTagsMap: a map-shaped type reads back every remote tag into
// tags_all, and into tags only those that are not default tags (current
// ones, or ones applied as defaults before) or that the configuration
// sets itself.
func TestSplitTagsMap(t *testing.T) {
	rt := tagTypes(t).Type("AWS::Test::Mapped")
	s := rt.ResourceSchema()
	addTagsAll(rt, &s)
	ty := s.Type().TerraformType(context.Background()).(tftypes.Object)
	prior := `{"name":"n","tags":{"env":"prod","app":"x"},"tags_all":{"env":"prod","app":"x","team":"infra"}}`
	cases := map[string]struct {
		reason   string
		defaults map[string]string
		remote   string
		want     string
	}{
		"unchanged": {reason: "No perpetual diff: the read equals prior state.",
			defaults: map[string]string{"team": "infra", "env": "dev"},
			remote:   `{"env":"prod","app":"x","team":"infra"}`, want: prior},
		"default removed": {reason: "A key just removed from default_tags is still a default tag, not the resource's own.",
			defaults: map[string]string{"env": "dev"},
			remote:   `{"env":"prod","app":"x","team":"infra"}`, want: prior},
		"no defaults left": {reason: "So it is when default_tags are gone altogether.",
			remote: `{"env":"prod","app":"x","team":"infra"}`, want: prior},
		"tag added outside": {reason: "A tag neither configured nor applied as a default is drift in tags.",
			defaults: map[string]string{"team": "infra"},
			remote:   `{"env":"prod","app":"x","team":"infra","owner":"bob"}`,
			want:     `{"name":"n","tags":{"env":"prod","app":"x","owner":"bob"},"tags_all":{"env":"prod","app":"x","team":"infra","owner":"bob"}}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := &ccResource{t: rt, rt: &runtime{defaultTags: tc.defaults}}
			pv := tfValue(t, ty, prior)
			read, err := stateFromJSON(rt.Attributes, ty, mustDecode(t, `{"Name":"n","Tags":`+tc.remote+`}`), pv)
			if err != nil {
				t.Fatal(err)
			}
			got := r.splitTags(read, pv)
			if want := tfValue(t, ty, tc.want); !got.Equal(want) {
				t.Errorf("%s\ngot  %s\nwant %s", tc.reason, got, want)
			}
		})
	}
}
