package wire

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

func TestPath(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     *tftypes.AttributePath
		want   cty.Path
	}{
		"Nil": {"No path is no path.", nil, nil},
		"Steps": {"Names, string keys and int keys map one to one.",
			tftypes.NewAttributePath().WithAttributeName("a").WithElementKeyString("k").WithElementKeyInt(2).WithAttributeName("b"),
			cty.GetAttrPath("a").Index(cty.StringVal("k")).Index(cty.NumberIntVal(2)).GetAttr("b")},
		"SetElement": {"A set element step ends the path at the set.",
			tftypes.NewAttributePath().WithAttributeName("s").WithElementKeyValue(tftypes.NewValue(tftypes.String, "x")).WithAttributeName("b"),
			cty.GetAttrPath("s")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := Path(tc.in)
			if !got.Equals(tc.want) || len(got) != len(tc.want) {
				t.Errorf("%s\ngot %#v, want %#v", tc.reason, got, tc.want)
			}
		})
	}
}

func TestAttributePathRoundTrip(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     cty.Path
		want   cty.Path
	}{
		"Steps":       {in: cty.GetAttrPath("a").Index(cty.StringVal("k")).Index(cty.NumberIntVal(2)).GetAttr("b")},
		"Empty":       {in: cty.Path{}},
		"Fractional":  {reason: "an index that is not a whole number has no protocol step", in: cty.GetAttrPath("a").Index(cty.NumberFloatVal(1.5)).GetAttr("b"), want: cty.GetAttrPath("a")},
		"UnknownKey":  {reason: "an unknown index stops the path", in: cty.GetAttrPath("a").Index(cty.UnknownVal(cty.String)), want: cty.GetAttrPath("a")},
		"BoolKeyStop": {in: cty.GetAttrPath("a").Index(cty.True), want: cty.GetAttrPath("a")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want := tc.want
			if want == nil {
				want = tc.in
			}
			got := Path(AttributePath(tc.in))
			if !got.Equals(want) || len(got) != len(want) {
				t.Errorf("%s\ngot %#v, want %#v", tc.reason, got, want)
			}
		})
	}
}

func TestDiagnostic(t *testing.T) {
	attr := tftypes.NewAttributePath().WithAttributeName("x")
	w := Diagnostic(true, "s", "d", attr)
	e := Diagnostic(false, "s", "d", nil)
	if w.Severity == e.Severity || !w.Path.Equals(cty.GetAttrPath("x")) || e.Path != nil || w.Summary != "s" || w.Detail != "d" {
		t.Errorf("warning %#v, error %#v", w, e)
	}
}

func TestGuard(t *testing.T) {
	err := Guard(func() error { panic("boom") })
	if err == nil {
		t.Fatal("a panic was not turned into an error")
	}
	var c Codec
	c.Encode("config", cty.StringVal("x").Mark("sensitive"), cty.String)
	if _, err := Invoke(&c, func() (*int, error) { t.Fatal("called after an encoding failure"); return nil, nil }); err == nil {
		t.Errorf("Invoke ran with a failed codec")
	}
	var ok Codec
	if _, err := Invoke(&ok, func() (*int, error) { return nil, nil }); err == nil {
		t.Errorf("a missing response is an error")
	}
}
