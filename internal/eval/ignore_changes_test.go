package eval

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// markedPaths lists "path: marks" for every marked place in v, sorted.
func markedPaths(v cty.Value) []string {
	_, pvm := v.UnmarkDeepWithPaths()
	var out []string
	for _, pm := range pvm {
		var ms []string
		for m := range pm.Marks {
			ms = append(ms, fmt.Sprint(m))
		}
		sort.Strings(ms)
		var p strings.Builder
		for _, s := range pm.Path {
			switch s := s.(type) {
			case cty.GetAttrStep:
				p.WriteString("." + s.Name)
			case cty.IndexStep:
				if s.Key.Type() == cty.String {
					fmt.Fprintf(&p, "[%q]", s.Key.AsString())
				} else {
					p.WriteString("[" + s.Key.AsBigFloat().String() + "]")
				}
			}
		}
		out = append(out, p.String()+": "+strings.Join(ms, ","))
	}
	sort.Strings(out)
	return out
}

func TestIgnoreChanges(t *testing.T) {
	const s = configschema.SensitiveMark
	obj := func(name, input cty.Value, tags map[string]cty.Value) cty.Value {
		tv := cty.NullVal(cty.Map(cty.String))
		if tags != nil {
			tv = cty.MapValEmpty(cty.String)
			if len(tags) > 0 {
				tv = cty.MapVal(tags)
			}
		}
		return cty.ObjectVal(map[string]cty.Value{"name": name, "input": input, "tags": tv})
	}
	str := cty.StringVal
	prior := obj(str("old"), str("in-old"), map[string]cty.Value{"Name": str("n-old"), "env": str("e-old")})
	config := obj(str("new"), str("in-new"), map[string]cty.Value{"Name": str("n-new"), "env": str("e-new")})
	objTy := config.Type()

	cases := map[string]struct {
		reason    string
		lifecycle string
		prior     cty.Value
		config    cty.Value
		want      cty.Value
		wantMarks []string
	}{
		"NoIgnoreChanges": {
			lifecycle: ``,
			prior:     prior,
			config:    config,
			want:      config,
		},
		"Create": {
			reason:    "Without a prior object there is nothing to keep.",
			lifecycle: `ignore_changes = [name]`,
			prior:     cty.NullVal(objTy),
			config:    config,
			want:      config,
		},
		"Attribute": {
			lifecycle: `ignore_changes = [name]`,
			prior:     prior,
			config:    config,
			want:      obj(str("old"), str("in-new"), map[string]cty.Value{"Name": str("n-new"), "env": str("e-new")}),
		},
		"SeveralAttributes": {
			lifecycle: `ignore_changes = [name, tags]`,
			prior:     prior,
			config:    config,
			want:      obj(str("old"), str("in-new"), map[string]cty.Value{"Name": str("n-old"), "env": str("e-old")}),
		},
		"All": {
			lifecycle: `ignore_changes = all`,
			prior:     prior,
			config:    config,
			want:      prior,
		},
		"KeyIntoObject": {
			reason:    "A string key into an object (a dynamically typed input holding an object) keeps the whole prior value there, as Terraform 1.5.7 does: only maps are split key by key.",
			lifecycle: `ignore_changes = [input["k"]]`,
			prior:     obj(str("old"), cty.ObjectVal(map[string]cty.Value{"k": str("1"), "other": str("1")}), nil),
			config:    obj(str("new"), cty.ObjectVal(map[string]cty.Value{"k": str("2"), "other": str("2")}), nil),
			want:      obj(str("new"), cty.ObjectVal(map[string]cty.Value{"k": str("1"), "other": str("1")}), nil),
		},
		"MapKey": {
			reason:    "Only the named key keeps its prior value; other keys follow the configuration.",
			lifecycle: `ignore_changes = [tags["Name"]]`,
			prior:     prior,
			config:    config,
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{"Name": str("n-old"), "env": str("e-new")}),
		},
		"MapKeyNewInConfig": {
			reason:    "An ignored key follows the prior object, absence included: adding it is a change too, as in Terraform.",
			lifecycle: `ignore_changes = [tags["Owner"]]`,
			prior:     prior,
			config:    obj(str("new"), str("in-new"), map[string]cty.Value{"Owner": str("me"), "env": str("e-new")}),
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{"env": str("e-new")}),
		},
		"MapKeyPriorMapNull": {
			lifecycle: `ignore_changes = [tags["Owner"]]`,
			prior:     obj(str("old"), str("in-old"), nil),
			config:    obj(str("new"), str("in-new"), map[string]cty.Value{"Owner": str("me")}),
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{}),
		},
		"MapKeyConfigMapNull": {
			reason:    "A null configured map still gets the ignored key back from the prior.",
			lifecycle: `ignore_changes = [tags["Name"]]`,
			prior:     prior,
			config:    obj(str("new"), str("in-new"), nil),
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{"Name": str("n-old")}),
		},
		"MapKeyBothAbsent": {
			reason:    "Nothing to add to a null map stays null.",
			lifecycle: `ignore_changes = [tags["Owner"]]`,
			prior:     prior,
			config:    obj(str("new"), str("in-new"), nil),
			want:      obj(str("new"), str("in-new"), nil),
		},
		"MapKeyRemovedFromConfig": {
			reason:    "Removing an ignored key from the configuration is a change to it, so the prior value stays, as in Terraform.",
			lifecycle: `ignore_changes = [tags["Name"]]`,
			prior:     prior,
			config:    obj(str("new"), str("in-new"), map[string]cty.Value{"env": str("e-new")}),
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{"Name": str("n-old"), "env": str("e-new")}),
		},
		"DynamicAttributeChangedType": {
			reason:    "An attribute of dynamic type keeps its prior value even when the configured value has another type.",
			lifecycle: `ignore_changes = [input]`,
			prior:     prior,
			config:    obj(str("new"), cty.NumberIntVal(5), map[string]cty.Value{}),
			want:      obj(str("new"), str("in-old"), map[string]cty.Value{}),
		},
		"UnknownConfig": {
			lifecycle: `ignore_changes = [name]`,
			prior:     prior,
			config:    cty.UnknownVal(objTy),
			want:      cty.UnknownVal(objTy),
		},
		"ConfigMarksKept": {
			lifecycle: `ignore_changes = [name]`,
			prior:     prior,
			config:    obj(str("new"), str("in-new").Mark(s), map[string]cty.Value{"Name": str("n-new").Mark(s)}),
			want:      obj(str("old"), str("in-new").Mark(s), map[string]cty.Value{"Name": str("n-new").Mark(s)}),
			wantMarks: []string{`.input: sensitive`, `.tags["Name"]: sensitive`},
		},
		"PriorMarksAtIgnoredPath": {
			reason:    "The prior value taken at an ignored path keeps its sensitivity.",
			lifecycle: `ignore_changes = [name]`,
			prior:     obj(str("old").Mark(s), str("in-old"), nil),
			config:    obj(str("new"), str("in-new"), nil),
			want:      obj(str("old").Mark(s), str("in-new"), nil),
			wantMarks: []string{`.name: sensitive`},
		},
		"PriorMarksElsewhereDropped": {
			reason:    "Only ignored paths take the prior's marks; elsewhere the configuration decides what is sensitive.",
			lifecycle: `ignore_changes = [name]`,
			prior:     obj(str("old"), str("in-old").Mark(s), nil),
			config:    obj(str("new"), str("in-new"), nil),
			want:      obj(str("old"), str("in-new"), nil),
			wantMarks: nil,
		},
		"PriorMarkOfRestoredMapKey": {
			lifecycle: `ignore_changes = [tags["Name"]]`,
			prior:     obj(str("old"), str("in-old"), map[string]cty.Value{"Name": str("n-old").Mark(s), "env": str("e-old").Mark(s)}),
			config:    obj(str("new"), str("in-new"), map[string]cty.Value{"env": str("e-new")}),
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{"Name": str("n-old").Mark(s), "env": str("e-new")}),
			wantMarks: []string{`.tags["Name"]: sensitive`},
		},
		"PriorMarksInsideIgnoredMap": {
			lifecycle: `ignore_changes = [tags]`,
			prior:     obj(str("old"), str("in-old"), map[string]cty.Value{"k": str("v").Mark(s)}),
			config:    obj(str("new"), str("in-new"), map[string]cty.Value{}),
			want:      obj(str("new"), str("in-new"), map[string]cty.Value{"k": str("v").Mark(s)}),
			wantMarks: []string{`.tags["k"]: sensitive`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			lifecycle := ""
			if tc.lifecycle != "" {
				lifecycle = "lifecycle {\n    " + tc.lifecycle + "\n  }"
			}
			mod := loadModule(t, `
resource "terraform_data" "x" {
  `+lifecycle+`
}
`)
			got := IgnoreChanges(mod.ManagedResources["terraform_data.x"], tc.prior, tc.config)
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantMarks, markedPaths(got)); diff != "" {
				t.Errorf("%s\nmarks: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
