package states

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

func TestStateSecrets(t *testing.T) {
	schema := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":       {Type: cty.String, Computed: true},
		"name":     {Type: cty.String, Optional: true},
		"password": {Type: cty.String, Optional: true, Sensitive: true},
	}}
	obj := func(id, name, password string, recorded ...cty.Path) *ObjectSrc {
		return &ObjectSrc{AttrsJSON: []byte(`{"id":"` + id + `","name":"` + name + `","password":"` + password + `"}`), AttrSensitivePaths: recorded, Status: ObjectReady}
	}
	s := NewState()
	s.SetResourceInstanceCurrent(managedRes("thing", "a").Instance(addrs.NoKey), obj("app-from-var", "from-variable", "schema-secret"), awsProvider)
	s.SetResourceInstanceCurrent(managedRes("thing", "b").Instance(addrs.NoKey), obj("b", "recorded-secret", "", cty.GetAttrPath("name")), awsProvider)
	s.SetResourceInstanceDeposed(managedRes("thing", "b").Instance(addrs.NoKey), "00000001", obj("b-old", "old-plain", "deposed-secret"), awsProvider)
	s.SetResourceInstanceCurrent(managedRes("unknown_type", "c").Instance(addrs.NoKey), obj("c", "c", "not-decoded"), awsProvider)
	s.Outputs["pw"] = &OutputValue{Value: cty.StringVal("output-secret"), Sensitive: true}
	s.Outputs["plain"] = &OutputValue{Value: cty.StringVal("output-plain")}
	got := s.Secrets(func(_ addrs.Provider, r addrs.Resource) *configschema.Block {
		if r.Type == "thing" {
			return schema
		}
		return nil
	})
	for _, want := range []string{"schema-secret", "recorded-secret", "deposed-secret", "output-secret"} {
		if !got.Is(want) {
			t.Errorf("Secrets does not hold %q", want)
		}
	}
	for _, not := range []string{"app-from-var", "from-variable", "old-plain", "not-decoded", "output-plain", "b"} {
		if got.Is(not) {
			t.Errorf("Secrets holds %q, which nothing marks", not)
		}
	}
	if (*State)(nil).Secrets(nil).Len() != 0 {
		t.Error("a nil state has secrets")
	}
}
