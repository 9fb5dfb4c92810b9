package planning

import (
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// testSchemas has one resource type, t_x, and one data source, t_d, both
// with an "in" argument to refer through.
func testSchemas() providers.Schemas {
	block := &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"in": {Type: cty.String, Optional: true},
		"id": {Type: cty.String, Computed: true},
	}}
	return providers.Schemas{addrs.NewDefaultProvider("t"): {
		Provider:      providers.Schema{Block: &configschema.Block{}},
		ResourceTypes: map[string]providers.Schema{"t_x": {Block: block}},
		DataSources:   map[string]providers.Schema{"t_d": {Block: block}},
	}}
}

func testConfigGraph(t *testing.T, src string, prior *states.State) *configGraph {
	t.Helper()
	cfg, ds := configs.LoadFiles(".", map[string][]byte{"main.tf": []byte(src)})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	env := &eval.Env{Prepared: eval.NewPreparedCache()}
	cg, ds := buildConfigGraph(cfg, prior, testSchemas(), env.PreparedBlock)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return cg
}

func TestForcedCreateBeforeDestroy(t *testing.T) {
	priorWith := func(cbd bool, deps ...string) *states.State {
		s := states.NewState()
		var ds []addrs.AbsResource
		for _, d := range deps {
			a, _ := addrs.ParseAbsResourceStr(d)
			ds = append(ds, a)
		}
		a, _ := addrs.ParseAbsResourceInstanceStr("t_x.gone")
		s.SetResourceInstanceCurrent(a, &states.ObjectSrc{AttrsJSON: []byte(`{}`), Status: states.ObjectReady, CreateBeforeDestroy: cbd, Dependencies: ds},
			addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("t")})
		return s
	}
	cases := map[string]struct {
		reason string
		src    string
		prior  *states.State
		want   []string
	}{
		"None": {
			src: `
resource "t_x" "a" {}
resource "t_x" "b" { in = t_x.a.id }`,
		},
		"Own": {
			src: `
resource "t_x" "a" {
  lifecycle { create_before_destroy = true }
}`,
			want: []string{"t_x.a"},
		},
		"DependenciesForced": {
			reason: "everything a create_before_destroy resource depends on is forced, transitively, through locals and depends_on",
			src: `
resource "t_x" "root" {}
resource "t_x" "mid" { in = t_x.root.id }
locals { l = t_x.mid.id }
resource "t_x" "other" {}
resource "t_x" "top" {
  in         = local.l
  depends_on = [t_x.other]
  lifecycle { create_before_destroy = true }
}
resource "t_x" "unrelated" { in = t_x.top.id }`,
			want: []string{"t_x.mid", "t_x.other", "t_x.root", "t_x.top"},
		},
		"ThroughDataSource": {
			reason: "a data source is never replaced, but what it reads from is still a dependency",
			src: `
resource "t_x" "src" {}
data "t_d" "d" { in = t_x.src.id }
resource "t_x" "top" {
  in = data.t_d.d.id
  lifecycle { create_before_destroy = true }
}`,
			want: []string{"t_x.src", "t_x.top"},
		},
		"DependentsNotForced": {
			reason: "only dependencies are forced, not what depends on the resource",
			src: `
resource "t_x" "a" {
  lifecycle { create_before_destroy = true }
}
resource "t_x" "b" { in = t_x.a.id }`,
			want: []string{"t_x.a"},
		},
		"OrphanInState": {
			reason: "a removed create_before_destroy object forces the dependencies state recorded for it",
			src: `
resource "t_x" "a" {}
resource "t_x" "b" {}`,
			prior: priorWith(true, "t_x.a"),
			want:  []string{"t_x.a"},
		},
		"OrphanWithoutCreateBeforeDestroy": {
			src: `
resource "t_x" "a" {}`,
			prior: priorWith(false, "t_x.a"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cg := testConfigGraph(t, tc.src, tc.prior)
			forced := forcedCreateBeforeDestroy(cg, tc.prior)
			var got []string
			for _, v := range cg.vertices {
				if v.kind == vResource && forced[v.resource.Addr().InModule(v.module).UniqueKey()] {
					got = append(got, v.resource.Addr().String())
				}
			}
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
