package statefile_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
)

// TestReadDependencies: dependencies read as the addresses they name,
// sorted by address whatever the order or spelling of the text, and the
// same text in many objects reads the same each time.
func TestReadDependencies(t *testing.T) {
	tests := map[string]struct {
		reason string
		deps   [][]string // per instance
		want   [][]string // per instance, as the addresses' String
	}{
		"sorted": {
			reason: "as Terraform writes them",
			deps:   [][]string{{"terraform_data.a", "terraform_data.b"}},
			want:   [][]string{{"terraform_data.a", "terraform_data.b"}},
		},
		"unsorted": {
			reason: "a hand-edited file reads as it will be written",
			deps:   [][]string{{"terraform_data.b", "terraform_data.a"}},
			want:   [][]string{{"terraform_data.a", "terraform_data.b"}},
		},
		"sorted as text, not as addresses": {
			reason: "text spelled otherwise than String is sorted by the address it names",
			deps:   [][]string{{"x . b", "x.a"}},
			want:   [][]string{{"x.a", "x.b"}},
		},
		"module keys spelled otherwise": {
			deps: [][]string{{`module.m[010].x.y`, `module.m[2].x.y`}},
			want: [][]string{{`module.m[10].x.y`, `module.m[2].x.y`}},
		},
		"shared by instances": {
			reason: "a chain records its dependencies transitively: the same text in every later object",
			deps: [][]string{
				{},
				{"terraform_data.r0"},
				{"terraform_data.r0", "terraform_data.r1"},
				{`module.m["k"].data.d.r`, "terraform_data.r0", "terraform_data.r1"},
				{"terraform_data.r1", `module.m["k"].data.d.r`, "terraform_data.r0"},
			},
			want: [][]string{
				nil,
				{"terraform_data.r0"},
				{"terraform_data.r0", "terraform_data.r1"},
				{`module.m["k"].data.d.r`, "terraform_data.r0", "terraform_data.r1"},
				{`module.m["k"].data.d.r`, "terraform_data.r0", "terraform_data.r1"},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var instances []string
			for i, deps := range tc.deps {
				js, _ := json.Marshal(deps)
				instances = append(instances, fmt.Sprintf(`{"index_key":%d,"schema_version":0,"attributes":{},"dependencies":%s}`, i, js))
			}
			f, err := statefile.Read(strings.NewReader(resourceDoc("", strings.Join(instances, ","))))
			if err != nil {
				t.Fatal(err)
			}
			rs := f.State.Resources[managed("terraform_data", "a").UniqueKey()]
			var got [][]string
			for i := range tc.deps {
				var texts []string
				for _, d := range rs.Instances[addrs.IntKey(i)].Current.Dependencies {
					texts = append(texts, d.String())
				}
				got = append(got, texts)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\ndependencies: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestReadDependencyErrorsRepeat: a bad dependency is reported wherever it
// appears, not only the first time it is parsed.
func TestReadDependencyErrorsRepeat(t *testing.T) {
	doc := resourceDoc("", `{"index_key":0,"schema_version":0,"attributes":{},"dependencies":["terraform_data.b"]},`+
		`{"index_key":1,"schema_version":0,"attributes":{},"dependencies":["terraform_data.b", "terraform_data.c[0]"]},`+
		`{"index_key":2,"schema_version":0,"attributes":{},"dependencies":["terraform_data.c[0]"]}`)
	_, err := statefile.Read(strings.NewReader(doc))
	if err == nil || !strings.Contains(err.Error(), `terraform_data.a[1]: dependencies: invalid resource address "terraform_data.c[0]"`) {
		t.Fatalf("error = %v, want the bad dependency of terraform_data.a[1]", err)
	}
}
