package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAbsResourceInstanceObjectString(t *testing.T) {
	inst := managed("terraform_data", "a").Instance(IntKey(0)).Absolute(ModuleInstance{{Name: "m"}})
	cases := map[string]struct {
		obj  AbsResourceInstanceObject
		want string
	}{
		"Current": {obj: inst.Object(NotDeposed), want: "module.m.terraform_data.a[0]"},
		"Deposed": {obj: inst.Object("0badcafe"), want: "module.m.terraform_data.a[0] (deposed object 0badcafe)"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.obj.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
	cur, dep := inst.Object(NotDeposed), inst.Object("0badcafe")
	if !cur.Less(dep) || dep.Less(cur) {
		t.Errorf("the current object must sort before its deposed objects")
	}
	if cur.IsDeposed() || !dep.IsDeposed() {
		t.Errorf("IsDeposed is wrong")
	}
}

func TestParseDeposedKey(t *testing.T) {
	cases := map[string]struct {
		input   string
		want    DeposedKey
		wantErr bool
	}{
		"Current":    {input: "", want: NotDeposed},
		"Lower":      {input: "0badcafe", want: "0badcafe"},
		"Upper":      {input: "0BADCAFE", want: "0BADCAFE"},
		"TooShort":   {input: "0bad", wantErr: true},
		"NotHex":     {input: "0badcafz", wantErr: true},
		"Multibyte":  {input: "0badcaf\u00e9", wantErr: true},
		"TooLong":    {input: "0badcafe0", wantErr: true},
		"Whitespace": {input: " badcafe", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseDeposedKey(tc.input)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, want error %t", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseModuleInstanceStr(t *testing.T) {
	cases := map[string]struct {
		input   string
		want    ModuleInstance
		wantErr bool
	}{
		"Root":        {input: "", want: RootModuleInstance},
		"One":         {input: "module.a", want: ModuleInstance{{Name: "a"}}},
		"KeysNested":  {input: `module.a["x"].module.b[3]`, want: ModuleInstance{{Name: "a", Key: StringKey("x")}, {Name: "b", Key: IntKey(3)}}},
		"Trailing":    {input: "module.a.terraform_data.b", wantErr: true},
		"NoName":      {input: "module", wantErr: true},
		"NotAModule":  {input: "terraform_data.b", wantErr: true},
		"BadTraverse": {input: "module.a[", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseModuleInstanceStr(tc.input)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, want error %t", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if diff := cmp.Diff(tc.want.String(), got.String()); diff != "" || !got.Equal(tc.want) {
				t.Errorf("-want +got:\n%s", diff)
			}
			if got.String() != tc.input {
				t.Errorf("String() = %q does not round-trip %q", got.String(), tc.input)
			}
		})
	}
}

func TestModulePaths(t *testing.T) {
	mi := ModuleInstance{{Name: "a", Key: IntKey(1)}, {Name: "b"}}
	if got := mi.Module().String(); got != "module.a.module.b" {
		t.Errorf("Module() = %q", got)
	}
	if got := mi.Module().UnkeyedInstance(); !got.Equal(ModuleInstance{{Name: "a"}, {Name: "b"}}) {
		t.Errorf("UnkeyedInstance() = %s", got)
	}
	if got := RootModule.Child("x").Child("y").String(); got != "module.x.module.y" {
		t.Errorf("Child = %q", got)
	}
	parent := ModuleInstance{{Name: "a"}}
	child := parent.Child("c", StringKey("k"))
	if parent.String() != "module.a" || child.String() != `module.a.module.c["k"]` {
		t.Errorf("Child must not modify its receiver: %s, %s", parent, child)
	}
}

func TestParseAbsLocalValueStr(t *testing.T) {
	cases := map[string]struct {
		input   string
		wantErr bool
	}{
		"Root":      {input: "local.a"},
		"InModule":  {input: `module.m["k"].local.a`},
		"NoName":    {input: "local", wantErr: true},
		"Extra":     {input: "local.a.b", wantErr: true},
		"NotLocal":  {input: "var.a", wantErr: true},
		"BadSyntax": {input: "local.", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseAbsLocalValueStr(tc.input)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error = %v, want error %t", err, tc.wantErr)
			}
			if err == nil && got.String() != tc.input {
				t.Errorf("round trip: %q became %q", tc.input, got.String())
			}
		})
	}
}

func TestAbsResourceLessAgreesWithInstances(t *testing.T) {
	rs := []AbsResource{
		managed("b", "a").Absolute(nil), managed("a", "z").Absolute(nil), data("z", "z").Absolute(nil),
		managed("a", "b").Absolute(ModuleInstance{{Name: "m"}}), data("a", "a").Absolute(ModuleInstance{{Name: "m", Key: IntKey(1)}}),
	}
	for _, a := range rs {
		for _, b := range rs {
			if got, want := a.Less(b), a.Instance(NoKey).Less(b.Instance(NoKey)); got != want {
				t.Errorf("%s.Less(%s) = %t, instances say %t", a, b, got, want)
			}
		}
	}
}
