package diags

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
)

const inBodySrc = `name = "web"
tags = {
  Name = "x"
}
item {
  size = 1
}
item {
  size = 2
  sub {
    deep = true
  }
}
label "one" {
  v = "1"
}
label "two" {
  v = "2"
}
`

func TestInBody(t *testing.T) {
	f, hd := hclsyntax.ParseConfig([]byte(inBodySrc), "main.tf", hcl.InitialPos)
	if hd.HasErrors() {
		t.Fatal(hd.Error())
	}
	fallback := rng("main.tf", 40, 1)
	cases := map[string]struct {
		reason string
		path   cty.Path
		want   string
	}{
		"TopLevelAttribute": {
			reason: "The range is the attribute's expression, the value the user wrote.",
			path:   cty.GetAttrPath("name"),
			want:   "main.tf:1:8",
		},
		"IntoAttributeValue": {
			reason: "Paths into an attribute's value stop at the attribute's expression.",
			path:   cty.GetAttrPath("tags").IndexString("Name"),
			want:   "main.tf:2:8",
		},
		"BlockByIndex": {
			path: cty.GetAttrPath("item").IndexInt(1).GetAttr("size"),
			want: "main.tf:9:10",
		},
		"FirstBlock": {
			path: cty.GetAttrPath("item").IndexInt(0).GetAttr("size"),
			want: "main.tf:6:10",
		},
		"NestedBlock": {
			path: cty.GetAttrPath("item").IndexInt(1).GetAttr("sub").IndexInt(0).GetAttr("deep"),
			want: "main.tf:11:12",
		},
		"BlockWithoutIndex": {
			reason: "A single (unindexed) nested block path descends into the block of that type.",
			path:   cty.GetAttrPath("item").GetAttr("size"),
			want:   "main.tf:6:10",
		},
		"BlockItself": {
			reason: "A path that ends at a block points at the block's header.",
			path:   cty.GetAttrPath("item").IndexInt(1),
			want:   "main.tf:8:1",
		},
		"UnsetAttributeInBlock": {
			reason: "An attribute the block does not set falls back to the deepest block found.",
			path:   cty.GetAttrPath("item").IndexInt(1).GetAttr("missing"),
			want:   "main.tf:8:1",
		},
		"MapBlockByLabel": {
			reason: "Map blocks are keyed by label, so the key picks the block with that label, not the first one.",
			path:   cty.GetAttrPath("label").IndexString("two").GetAttr("v"),
			want:   "main.tf:18:7",
		},
		"MapBlockFirstLabel": {
			path: cty.GetAttrPath("label").IndexString("one").GetAttr("v"),
			want: "main.tf:15:7",
		},
		"MapBlockUnknownLabel": {
			reason: "A key no block has leads nowhere; pointing at another block would mislead.",
			path:   cty.GetAttrPath("label").IndexString("three").GetAttr("v"),
			want:   "main.tf:40:1",
		},
		"IndexOutOfRange": {
			reason: "An index beyond the blocks written leads nowhere (e.g. a dynamic block made it); the first block is not it.",
			path:   cty.GetAttrPath("item").IndexInt(5).GetAttr("size"),
			want:   "main.tf:40:1",
		},
		"UnknownName": {
			path: cty.GetAttrPath("nope"),
			want: "main.tf:40:1",
		},
		"NoPath": {
			reason: "A diagnostic about the whole body points at where it opens, as Terraform's do (the file's start here; a block's opening brace in TestInBodyWhole).",
			path:   nil,
			want:   "main.tf:1:1",
		},
		"IndexFirst": {
			path: cty.IndexIntPath(0),
			want: "main.tf:40:1",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ds := Diagnostics{AttributeError(tc.path, "Bad", "")}
			got := ds.InBody(f.Body, fallback)
			if len(got) != 1 {
				t.Fatalf("got %d diagnostics", len(got))
			}
			if diff := cmp.Diff(tc.want, at(got[0].Subject)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if ds[0].Subject != nil {
				t.Errorf("InBody changed its receiver")
			}
		})
	}

	t.Run("SubjectKept", func(t *testing.T) {
		own := rng("other.tf", 5, 5)
		ds := Diagnostics{{Severity: Error, Summary: "Bad", Subject: own.Ptr(), Path: cty.GetAttrPath("name")}}
		got := ds.InBody(f.Body, fallback)
		if diff := cmp.Diff("other.tf:5:5", at(got[0].Subject)); diff != "" {
			t.Errorf("a diagnostic with a subject must keep it: -want +got:\n%s", diff)
		}
	})

	t.Run("Empty", func(t *testing.T) {
		if got := Diagnostics(nil).InBody(f.Body, fallback); got != nil {
			t.Errorf("InBody of nothing = %v", got)
		}
	})

	t.Run("JSONBodyFallsBack", func(t *testing.T) {
		jf, hd := json.Parse([]byte(`{"name": "web"}`), "main.tf.json")
		if hd.HasErrors() {
			t.Fatal(hd.Error())
		}
		ds := Diagnostics{AttributeError(cty.GetAttrPath("name"), "Bad", "")}
		got := ds.InBody(jf.Body, fallback)
		if diff := cmp.Diff("main.tf:40:1", at(got[0].Subject)); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
	})
}

// TestInBodyWhole locates diagnostics without a path in a block's body:
// Terraform 1.5.7 points a provider's whole-body complaint (a data
// source's failed read) at the block's opening brace, not its header.
func TestInBodyWhole(t *testing.T) {
	src := "data \"local_file\" \"probe\" {\n  filename = \"x\"\n}\n"
	f, hd := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if hd.HasErrors() {
		t.Fatal(hd.Error())
	}
	block := f.Body.(*hclsyntax.Body).Blocks[0]
	cases := map[string]struct {
		path cty.Path
		want string
	}{
		"no path":     {path: nil, want: "main.tf:1:27"},
		"attribute":   {path: cty.GetAttrPath("filename"), want: "main.tf:2:14"},
		"unknown one": {path: cty.GetAttrPath("nope"), want: "main.tf:1:1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Diagnostics{AttributeError(tc.path, "Bad", "")}.InBody(block.Body, block.DefRange())
			if diff := cmp.Diff(tc.want, at(got[0].Subject)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}
