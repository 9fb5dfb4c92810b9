package plans

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
)

// TestPlanFileKeepsDependencies: each change's dependencies come back in
// order, the same resource named by many changes (as a chain's
// transitive dependencies are) read as the same address every time, in
// plans decoded by one worker and by several.
func TestPlanFileKeepsDependencies(t *testing.T) {
	for _, n := range []int{3, 3 * minChangesPerWorker} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := benchPlan(t, terraformDataShape, n)
			want := make([][]string, n)
			for i, c := range p.Changes {
				for j := range i % 5 {
					s := fmt.Sprintf("terraform_data.r%d", j)
					if j%2 == 1 {
						s = fmt.Sprintf(`module.m["k%d"].data.d.r`, j)
					}
					d, ds := addrs.ParseAbsResourceStr(s)
					if ds.HasErrors() {
						t.Fatal(ds)
					}
					c.Dependencies = append(c.Dependencies, d)
					want[i] = append(want[i], s)
				}
			}
			got := make([][]string, n)
			for i, c := range roundTrip(t, p).Changes {
				for _, d := range c.Dependencies {
					got[i] = append(got[i], d.String())
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("dependencies: -want +got:\n%s", diff)
			}
		})
	}
}

// TestPlanFileRefusesBadDependency: a dependency that is not a resource
// address is refused wherever it appears, including after the same change
// named good ones.
func TestPlanFileRefusesBadDependency(t *testing.T) {
	doc, err := encodePlan(benchPlan(t, terraformDataShape, 3))
	if err != nil {
		t.Fatal(err)
	}
	doc.Changes[1].Dependencies = []string{"terraform_data.a", "terraform_data.b[0]"}
	doc.Changes[2].Dependencies = []string{"terraform_data.a"}
	_, err = decodePlan(doc)
	if want := `invalid dependency "terraform_data.b[0]"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}
