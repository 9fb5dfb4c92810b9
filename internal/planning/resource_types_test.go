package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configs"
)

// TestCheckResourceType pins Terraform 1.5.7's "Invalid resource type" and
// "Invalid data source" details: the block kind that has the name, else
// the provider's type within two edits.
func TestCheckResourceType(t *testing.T) {
	cases := map[string]struct {
		src  string
		addr string
		want string // the detail; "" for no error
	}{
		"known":           {src: `resource "t_x" "a" {}`, addr: "t_x.a"},
		"known data":      {src: `data "t_d" "a" {}`, addr: "data.t_d.a"},
		"misspelled":      {src: `resource "t_y" "a" {}`, addr: "t_y.a", want: `The provider hashicorp/t does not support resource type "t_y". Did you mean "t_x"?`},
		"nothing close":   {src: `resource "t_unrelated" "a" {}`, addr: "t_unrelated.a", want: `The provider hashicorp/t does not support resource type "t_unrelated".`},
		"a data source":   {src: `resource "t_d" "a" {}`, addr: "t_d.a", want: "The provider hashicorp/t does not support resource type \"t_d\".\n\nDid you intend to use the data source \"t_d\"? If so, declare this using a \"data\" block instead of a \"resource\" block."},
		"a resource type": {src: `data "t_x" "a" {}`, addr: "data.t_x.a", want: "The provider hashicorp/t does not support data source \"t_x\".\n\nDid you intend to use the managed resource type \"t_x\"? If so, declare this using a \"resource\" block instead of a \"data\" block."},
		"misspelled data": {src: `data "t_e" "a" {}`, addr: "data.t_e.a", want: `The provider hashicorp/t does not support data source "t_e". Did you mean "t_d"?`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, ds := configs.LoadFiles(".", map[string][]byte{"main.tf": []byte(tc.src)})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			r := cfg.ManagedResources[tc.addr]
			if r == nil {
				r = cfg.DataResources[tc.addr]
			}
			got := ""
			if ds := checkResourceType(r, testSchemas()); len(ds) > 0 {
				got = ds[0].Detail
			}
			if got != tc.want {
				t.Errorf("detail\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
