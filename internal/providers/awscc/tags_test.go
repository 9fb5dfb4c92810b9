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
// tags_all, and into tags only those that are not default tags or that
// the configuration sets itself.
func TestSplitTagsMap(t *testing.T) {
	rt := tagTypes(t).Type("AWS::Test::Mapped")
	s := rt.ResourceSchema()
	addTagsAll(rt, &s)
	ty := s.Type().TerraformType(context.Background()).(tftypes.Object)
	r := &ccResource{t: rt, rt: &runtime{defaultTags: map[string]string{"team": "infra", "env": "dev"}}}
	prior := tfValue(t, ty, `{"name":"n","tags":{"env":"prod","app":"x"},"tags_all":{"env":"prod","app":"x","team":"infra"}}`)
	read, err := stateFromJSON(rt.Attributes, ty, mustDecode(t, `{"Name":"n","Tags":{"env":"prod","app":"x","team":"infra"}}`), prior)
	if err != nil {
		t.Fatal(err)
	}
	got := r.splitTags(read, prior)
	if !got.Equal(prior) {
		t.Errorf("no perpetual diff: the read equals prior state\ngot  %s\nwant %s", got, prior)
	}
}
