package enginetest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNormaliserNamesIDs pins how random ids are made comparable: named
// for the address whose object first has them, numbered when that address
// gets a new object, and replaced wherever they appear, inside strings
// too; the placeholder does not depend on the id itself.
func TestNormaliserNamesIDs(t *testing.T) {
	state := func(a, b string) []byte {
		return []byte(`{"values":{"root_module":{"resources":[
			{"address":"terraform_data.b","values":{"id":"` + b + `","input":"x-` + a + `"}},
			{"address":"terraform_data.a","values":{"id":"` + a + `"}}]},
			"outputs":{"o":{"value":"` + a + `"}}}}`)
	}
	const (
		id1 = "11111111-1111-1111-1111-111111111111"
		id2 = "22222222-2222-2222-2222-222222222222"
		id3 = "33333333-3333-3333-3333-333333333333"
	)
	tests := map[string]struct {
		reason string
		docs   [][]byte
		want   string
	}{
		"named by address": {
			reason: "a reference to a's id in b's input and in an output reads ID(terraform_data.a)",
			docs:   [][]byte{state(id1, id2)},
			want:   "ID(terraform_data.a)",
		},
		"replaced object": {
			reason: "a's second object is ID(terraform_data.a)#2",
			docs:   [][]byte{state(id1, id2), state(id3, id2)},
			want:   "ID(terraform_data.a)#2",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n := newNormaliser()
			var doc any
			for _, d := range tc.docs {
				var err error
				if doc, err = n.document(d, false); err != nil {
					t.Fatal(err)
				}
			}
			values := asMap(asMap(doc)["values"])
			got := []any{
				asMap(asMap(values["outputs"])["o"])["value"],
				asMap(asMap(asList(asMap(values["root_module"])["resources"])[0])["values"])["id"],
				asMap(asMap(asList(asMap(values["root_module"])["resources"])[1])["values"])["input"],
			}
			want := []any{tc.want, tc.want, "x-" + tc.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestNormaliserNamesRandomValues: a scenario's random attribute is named
// for its address and attribute and replaced inside other strings, so
// two runs with different pets compare equal, and a value copied from
// the wrong resource would not.
func TestNormaliserNamesRandomValues(t *testing.T) {
	state := func(pet, copied string) []byte {
		return []byte(`{"values":{"root_module":{"resources":[
			{"address":"random_pet.p","type":"random_pet","values":{"id":"` + pet + `"}},
			{"address":"local_file.f","type":"local_file","values":{"content":"hello ` + copied + `!"}}]}}}`)
	}
	norm := func(raw []byte) any {
		n := newNormaliser()
		n.random = map[string][]string{"random_pet": {"id"}}
		doc, err := n.document(raw, false)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	a := norm(state("cairn-happy-cat", "cairn-happy-cat"))
	b := norm(state("cairn-sad-dog", "cairn-sad-dog"))
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs with different pets differ after normalising:\n%s", diff)
	}
	c := norm(state("cairn-sad-dog", "cairn-other"))
	if cmp.Equal(a, c) {
		t.Error("a file that does not hold the pet compares equal to one that does")
	}
}

// TestNormaliserErrored pins that a plan's "errored": false (always
// written by OpenTofu and Terraform from 1.6) compares equal to its
// absence (Terraform 1.5.7 writes it only when true), and that true
// stays.
func TestNormaliserErrored(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want any
	}{
		{`{"errored":false}`, nil},
		{`{}`, nil},
		{`{"errored":true}`, true},
	} {
		got, err := newNormaliser().document([]byte(tc.doc), true)
		if err != nil {
			t.Fatal(err)
		}
		if e := got.(map[string]any)["errored"]; e != tc.want {
			t.Errorf("%s: errored %v, want %v", tc.doc, e, tc.want)
		}
	}
}

// TestNormaliserConfiguration pins what a plan's configuration is
// normalised for: OpenTofu's registry host in full_name and the
// variable fields only OpenTofu writes; the rest is kept as written.
func TestNormaliserConfiguration(t *testing.T) {
	tofu := `{"configuration":{"provider_config":{"random":{"name":"random","full_name":"registry.opentofu.org/hashicorp/random"}},
		"root_module":{"variables":{"v":{"default":1,"type":"number","required":false,"sensitive":true}},
		"module_calls":{"m":{"source":"./m","module":{"variables":{"w":{"required":true,"type":"string","ephemeral":true}}}}}}}}`
	terraform := `{"configuration":{"provider_config":{"random":{"name":"random","full_name":"registry.terraform.io/hashicorp/random"}},
		"root_module":{"variables":{"v":{"default":1,"sensitive":true}},
		"module_calls":{"m":{"source":"./m","module":{"variables":{"w":{"ephemeral":true}}}}}}}}`
	a, err := newNormaliser().document([]byte(tofu), true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := newNormaliser().document([]byte(terraform), true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("OpenTofu's configuration normalised differs from Terraform's (-terraform +opentofu):\n%s", diff)
	}
	other, err := newNormaliser().document([]byte(strings.Replace(terraform, `"./m"`, `"./n"`, 1)), true)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Equal(b, other) {
		t.Error("a different module source compares equal")
	}
}

// TestNormaliserChecks pins what a plan's "checks" is compared for:
// check blocks only (Cairn does not list resources with conditions
// yet), in address order, and without problems when comparing with
// OpenTofu.
func TestNormaliserChecks(t *testing.T) {
	doc := `{"checks":[
		{"address":{"kind":"resource","to_display":"terraform_data.a"},"status":"pass"},
		{"address":{"kind":"check","to_display":"check.z"},"status":"pass","instances":[{"address":{"to_display":"check.z"},"status":"pass"}]},
		{"address":{"kind":"check","to_display":"check.a"},"status":"fail","instances":[{"address":{"to_display":"check.a"},"status":"fail","problems":[{"message":"no"}]}]}]}`
	inst := func(name, status string, problems ...string) map[string]any {
		in := map[string]any{"address": map[string]any{"to_display": name}, "status": status}
		if len(problems) > 0 {
			in["problems"] = []any{map[string]any{"message": problems[0]}}
		}
		return in
	}
	check := func(name, status string, in map[string]any) map[string]any {
		return map[string]any{"address": map[string]any{"kind": "check", "to_display": name}, "status": status, "instances": []any{in}}
	}
	for _, tc := range []struct {
		statusOnly bool
		want       []any
	}{
		{false, []any{check("check.a", "fail", inst("check.a", "fail", "no")), check("check.z", "pass", inst("check.z", "pass"))}},
		{true, []any{check("check.a", "fail", inst("check.a", "fail")), check("check.z", "pass", inst("check.z", "pass"))}},
	} {
		n := newNormaliser()
		n.checkStatusOnly = tc.statusOnly
		got, err := n.document([]byte(doc), true)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got.(map[string]any)["checks"]); diff != "" {
			t.Errorf("status only %v: -want +got:\n%s", tc.statusOnly, diff)
		}
	}
}
