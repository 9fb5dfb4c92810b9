package addrs

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// diagView is what these tests compare of an hcl diagnostic: severity and
// summary. Details are prose for people and left out on purpose.
type diagView struct {
	Severity hcl.DiagnosticSeverity
	Summary  string
}

func viewDiags(ds hcl.Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		out = append(out, diagView{d.Severity, d.Summary})
	}
	return out
}

func managed(typ, name string) Resource {
	return Resource{Mode: ManagedResourceMode, Type: typ, Name: name}
}
func data(typ, name string) Resource { return Resource{Mode: DataResourceMode, Type: typ, Name: name} }

func TestAbsResourceInstanceStringRoundTrip(t *testing.T) {
	cases := map[string]struct {
		reason string
		addr   AbsResourceInstance
		want   string
	}{
		"ManagedNoKey": {
			addr: managed("terraform_data", "a").Instance(NoKey).Absolute(RootModuleInstance),
			want: "terraform_data.a",
		},
		"ManagedIntKey": {
			addr: managed("terraform_data", "a").Instance(IntKey(0)).Absolute(RootModuleInstance),
			want: "terraform_data.a[0]",
		},
		"ManagedLargeIntKey": {
			addr: managed("aws_instance", "web").Instance(IntKey(12345)).Absolute(RootModuleInstance),
			want: "aws_instance.web[12345]",
		},
		"DataNoKey": {
			addr: data("aws_ami", "ubuntu").Instance(NoKey).Absolute(RootModuleInstance),
			want: "data.aws_ami.ubuntu",
		},
		"DataStringKey": {
			addr: data("x", "y").Instance(StringKey("k")).Absolute(RootModuleInstance),
			want: `data.x.y["k"]`,
		},
		"EmptyStringKey": {
			reason: "An empty for_each key is a valid key and must not vanish from the address.",
			addr:   managed("a", "b").Instance(StringKey("")).Absolute(RootModuleInstance),
			want:   `a.b[""]`,
		},
		"KeyWithQuotes": {
			addr: managed("a", "b").Instance(StringKey(`say "hi"`)).Absolute(RootModuleInstance),
			want: `a.b["say \"hi\""]`,
		},
		"KeyWithBackslash": {
			addr: managed("a", "b").Instance(StringKey(`C:\dir`)).Absolute(RootModuleInstance),
			want: `a.b["C:\\dir"]`,
		},
		"KeyWithTemplateSequence": {
			reason: "${ would start an interpolation if it were not escaped.",
			addr:   managed("a", "b").Instance(StringKey("${var.x}")).Absolute(RootModuleInstance),
			want:   `a.b["$${var.x}"]`,
		},
		"KeyWithDirectiveSequence": {
			addr: managed("a", "b").Instance(StringKey("%{ if x }")).Absolute(RootModuleInstance),
			want: `a.b["%%{ if x }"]`,
		},
		"KeyWithNewlineAndTab": {
			addr: managed("a", "b").Instance(StringKey("line1\nline2\tend\r")).Absolute(RootModuleInstance),
			want: `a.b["line1\nline2\tend\r"]`,
		},
		"KeyWithUnicode": {
			addr: managed("a", "b").Instance(StringKey("café ☕")).Absolute(RootModuleInstance),
			want: `a.b["café ☕"]`,
		},
		"KeyThatLooksLikeANumber": {
			reason: `A string key "0" must stay a string key, not become IntKey(0).`,
			addr:   managed("a", "b").Instance(StringKey("0")).Absolute(RootModuleInstance),
			want:   `a.b["0"]`,
		},
		"NamesWithDashes": {
			addr: managed("my-type", "my-name").Instance(NoKey).Absolute(RootModuleInstance),
			want: "my-type.my-name",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.addr.String()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nString(): -want +got:\n%s", tc.reason, diff)
			}
			back, ds := ParseAbsResourceInstanceStr(got)
			if len(ds) > 0 {
				t.Fatalf("%s\nParseAbsResourceInstanceStr(%q): unexpected diagnostics: %s", tc.reason, got, ds.Error())
			}
			if diff := cmp.Diff(tc.addr, back); diff != "" {
				t.Errorf("%s\nParseAbsResourceInstanceStr(%q): -want +got:\n%s", tc.reason, got, diff)
			}
			if !back.Equal(tc.addr) {
				t.Errorf("%s\nparsed address %s is not Equal to the original", tc.reason, back)
			}
			if back.UniqueKey() != tc.addr.UniqueKey() {
				t.Errorf("%s\nparsed address %s has a different UniqueKey", tc.reason, back)
			}
		})
	}
}

func TestParseAbsResourceInstanceStr(t *testing.T) {
	invalid := []diagView{{hcl.DiagError, "Invalid resource instance address"}}
	cases := map[string]struct {
		reason    string
		input     string
		want      AbsResourceInstance
		wantDiags []diagView
	}{
		"Managed": {
			input: "terraform_data.a",
			want:  managed("terraform_data", "a").Instance(NoKey).Absolute(RootModuleInstance),
		},
		"WholeNumberWrittenWithExponent": {
			reason: "Any whole number is an int key, however it is written.",
			input:  "a.b[1e2]",
			want:   managed("a", "b").Instance(IntKey(100)).Absolute(RootModuleInstance),
		},
		"DataStringKey": {
			input: `data.x.y["k"]`,
			want:  data("x", "y").Instance(StringKey("k")).Absolute(RootModuleInstance),
		},
		"EscapedKey": {
			input: `a.b["a\"b\nc$${d}"]`,
			want:  managed("a", "b").Instance(StringKey("a\"b\nc${d}")).Absolute(RootModuleInstance),
		},
		"TypeOnly": {
			input:     "terraform_data",
			wantDiags: invalid,
		},
		"DataTypeOnly": {
			input:     "data.x",
			wantDiags: invalid,
		},
		"BareData": {
			input:     "data",
			wantDiags: invalid,
		},
		"Module": {
			input: "module.a.terraform_data.b",
			want:  managed("terraform_data", "b").Instance(NoKey).Absolute(ModuleInstance{{Name: "a"}}),
		},
		"NestedModulesWithKeys": {
			reason: "Module instance keys and a data resource after the path, as users name them in -replace and state commands.",
			input:  `module.a["x"].module.b[2].data.t.n[0]`,
			want:   data("t", "n").Instance(IntKey(0)).Absolute(ModuleInstance{{Name: "a", Key: StringKey("x")}, {Name: "b", Key: IntKey(2)}}),
		},
		"ModuleOnly": {
			reason:    "A module path alone names no resource.",
			input:     "module.a",
			wantDiags: invalid,
		},
		"ModuleWithoutName": {
			input:     "module",
			wantDiags: invalid,
		},
		"ModuleBadKey": {
			input:     "module.a[true].b.c",
			wantDiags: invalid,
		},
		"FractionalKey": {
			input:     "a.b[1.5]",
			wantDiags: invalid,
		},
		"BoolKey": {
			input:     "a.b[true]",
			wantDiags: invalid,
		},
		"IndexInsteadOfName": {
			input:     `a["b"]`,
			wantDiags: invalid,
		},
		"DataIndexInsteadOfType": {
			input:     `data["x"].y`,
			wantDiags: invalid,
		},
		"ExtraAttributeAfterKey": {
			input:     "a.b[0].id",
			wantDiags: invalid,
		},
		"AttributeInsteadOfKey": {
			input:     "a.b.id",
			wantDiags: invalid,
		},
		"TwoKeys": {
			input:     "a.b[0][1]",
			wantDiags: invalid,
		},
		"Splat": {
			input:     "a.b[*]",
			wantDiags: invalid,
		},
		"NotATraversal": {
			input:     "a.b + 1",
			wantDiags: invalid,
		},
		"Empty": {
			input:     "",
			wantDiags: invalid,
		},
		"TemplateInKey": {
			reason:    "A key is a literal; an interpolation in it is not an address.",
			input:     `a.b["${x}"]`,
			wantDiags: invalid,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ds := ParseAbsResourceInstanceStr(tc.input)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\naddress: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestParseInstanceKey(t *testing.T) {
	cases := map[string]struct {
		reason  string
		value   cty.Value
		want    InstanceKey
		wantErr bool
	}{
		"Zero":        {value: cty.Zero, want: IntKey(0)},
		"Int":         {value: cty.NumberIntVal(7), want: IntKey(7)},
		"String":      {value: cty.StringVal("a"), want: StringKey("a")},
		"Negative":    {reason: "count.index is never negative.", value: cty.NumberIntVal(-1), wantErr: true},
		"Fraction":    {value: cty.NumberFloatVal(0.5), wantErr: true},
		"Bool":        {value: cty.True, wantErr: true},
		"NullString":  {value: cty.NullVal(cty.String), wantErr: true},
		"Unknown":     {value: cty.UnknownVal(cty.Number), wantErr: true},
		"List":        {value: cty.ListVal([]cty.Value{cty.Zero}), wantErr: true},
		"HugeInteger": {reason: "A number too large for an int is not a key.", value: cty.MustParseNumberVal("1e40"), wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseInstanceKey(tc.value)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nParseInstanceKey(%#v): error %v, want error %t", tc.reason, tc.value, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nParseInstanceKey(%#v): -want +got:\n%s", tc.reason, tc.value, diff)
			}
			if err == nil && !got.Value().RawEquals(tc.value) {
				t.Errorf("%s\nkey %s has Value %#v, want %#v", tc.reason, got, got.Value(), tc.value)
			}
		})
	}
}

func TestAbsResourceInstanceLess(t *testing.T) {
	root := RootModuleInstance
	// want is the order Terraform lists instances in: data resources first,
	// then by type, name and key; no key first, numbers before strings,
	// numbers numerically.
	want := []AbsResourceInstance{
		data("a", "x").Instance(NoKey).Absolute(root),
		data("b", "a").Instance(NoKey).Absolute(root),
		Resource{Mode: EphemeralResourceMode, Type: "z", Name: "z"}.Instance(NoKey).Absolute(root),
		managed("a", "a").Instance(NoKey).Absolute(root),
		managed("a", "b").Instance(IntKey(0)).Absolute(root),
		managed("a", "b").Instance(IntKey(2)).Absolute(root),
		managed("a", "b").Instance(IntKey(10)).Absolute(root),
		managed("a", "b").Instance(IntKey(100)).Absolute(root),
		managed("a", "b").Instance(StringKey("")).Absolute(root),
		managed("a", "b").Instance(StringKey("10")).Absolute(root),
		managed("a", "b").Instance(StringKey("2")).Absolute(root),
		managed("a", "b").Instance(StringKey("a")).Absolute(root),
		managed("a", "c").Instance(NoKey).Absolute(root),
		managed("b", "a").Instance(NoKey).Absolute(root),
		managed("a", "a").Instance(NoKey).Absolute(ModuleInstance{{Name: "m"}}),
		managed("a", "a").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: IntKey(0)}}),
		managed("a", "a").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: IntKey(1)}}),
		managed("a", "a").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: StringKey("a")}}),
		managed("a", "a").Instance(NoKey).Absolute(ModuleInstance{{Name: "n"}}),
		// Terraform orders shorter module paths first.
		managed("a", "a").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: StringKey("a")}, {Name: "n"}}),
	}
	for i := range want {
		for j := range want {
			if got := want[i].Less(want[j]); got != (i < j) {
				t.Errorf("%s.Less(%s) = %t, want %t", want[i], want[j], got, i < j)
			}
		}
	}

	rng := rand.New(rand.NewSource(1))
	for range 20 {
		got := append([]AbsResourceInstance(nil), want...)
		rng.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		sort.Slice(got, func(i, j int) bool { return got[i].Less(got[j]) })
		if diff := cmp.Diff(addrStrings(want), addrStrings(got)); diff != "" {
			t.Fatalf("sorted order: -want +got:\n%s", diff)
		}
	}
}

func addrStrings(as []AbsResourceInstance) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.String()
	}
	return out
}

func TestUniqueKey(t *testing.T) {
	root := RootModuleInstance
	mod := ModuleInstance{{Name: "m", Key: StringKey("k")}}
	cases := map[string]struct {
		reason string
		a, b   UniqueKey
		want   bool
	}{
		"SameInstance": {
			a: managed("a", "b").Instance(IntKey(1)).Absolute(root).UniqueKey(), b: managed("a", "b").Instance(IntKey(1)).Absolute(root).UniqueKey(), want: true,
		},
		"SameInstanceInModule": {
			a: managed("a", "b").Instance(IntKey(1)).Absolute(mod).UniqueKey(), b: managed("a", "b").Instance(IntKey(1)).Absolute(ModuleInstance{{Name: "m", Key: StringKey("k")}}).UniqueKey(), want: true,
		},
		"DifferentKeys": {
			a: managed("a", "b").Instance(IntKey(1)).Absolute(root).UniqueKey(), b: managed("a", "b").Instance(IntKey(2)).Absolute(root).UniqueKey(),
		},
		"IntKeyVersusStringKey": {
			reason: `[1] and ["1"] are different instances.`,
			a:      managed("a", "b").Instance(IntKey(1)).Absolute(root).UniqueKey(), b: managed("a", "b").Instance(StringKey("1")).Absolute(root).UniqueKey(),
		},
		"NoKeyVersusZero": {
			a: managed("a", "b").Instance(NoKey).Absolute(root).UniqueKey(), b: managed("a", "b").Instance(IntKey(0)).Absolute(root).UniqueKey(),
		},
		"ManagedVersusData": {
			a: managed("a", "b").Instance(NoKey).Absolute(root).UniqueKey(), b: data("a", "b").Instance(NoKey).Absolute(root).UniqueKey(),
		},
		"RootVersusModule": {
			a: managed("a", "b").Instance(NoKey).Absolute(root).UniqueKey(), b: managed("a", "b").Instance(NoKey).Absolute(mod).UniqueKey(),
		},
		"DifferentModuleKeys": {
			a: managed("a", "b").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: IntKey(0)}}).UniqueKey(),
			b: managed("a", "b").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: StringKey("0")}}).UniqueKey(),
		},
		"ResourceVersusItsNoKeyInstance": {
			reason: "Keys of different kinds never collide, even in a module where both are strings.",
			a:      managed("a", "b").Absolute(mod).UniqueKey(), b: managed("a", "b").Instance(NoKey).Absolute(mod).UniqueKey(),
		},
		"SameResource": {
			a: managed("a", "b").Absolute(root).UniqueKey(), b: managed("a", "b").Absolute(root).UniqueKey(), want: true,
		},
		"ResourceNamesDiffer": {
			a: managed("a", "b").Absolute(root).UniqueKey(), b: managed("a", "c").Absolute(root).UniqueKey(),
		},
		"SameProviderConfig": {
			a: AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "west"}.UniqueKey(),
			b: AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "west"}.UniqueKey(), want: true,
		},
		"ProviderConfigAliases": {
			a: AbsProviderConfig{Provider: NewDefaultProvider("aws")}.UniqueKey(),
			b: AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "west"}.UniqueKey(),
		},
		"ProviderConfigHosts": {
			a: AbsProviderConfig{Provider: NewDefaultProvider("aws")}.UniqueKey(),
			b: AbsProviderConfig{Provider: Provider{Hostname: "example.com", Namespace: "hashicorp", Type: "aws"}}.UniqueKey(),
		},
		"ProviderConfigInModule": {
			a: AbsProviderConfig{Provider: NewDefaultProvider("aws")}.UniqueKey(),
			b: AbsProviderConfig{Module: mod.Module(), Provider: NewDefaultProvider("aws")}.UniqueKey(),
		},
		"SameDeposedObject": {
			a: managed("a", "b").Instance(NoKey).Absolute(mod).Object("0000abcd").UniqueKey(),
			b: managed("a", "b").Instance(NoKey).Absolute(ModuleInstance{{Name: "m", Key: StringKey("k")}}).Object("0000abcd").UniqueKey(), want: true,
		},
		"CurrentVersusDeposedObject": {
			a: managed("a", "b").Instance(NoKey).Absolute(root).Object(NotDeposed).UniqueKey(),
			b: managed("a", "b").Instance(NoKey).Absolute(root).Object("0000abcd").UniqueKey(),
		},
		"CurrentObjectVersusInstance": {
			reason: "An instance and its current object are different kinds of address.",
			a:      managed("a", "b").Instance(NoKey).Absolute(root).Object(NotDeposed).UniqueKey(),
			b:      managed("a", "b").Instance(NoKey).Absolute(root).UniqueKey(),
		},
		"ConfigResourceVersusResource": {
			reason: "A configuration object and its root-module resource have the same text but are different kinds.",
			a:      managed("a", "b").InModule(RootModule).UniqueKey(),
			b:      managed("a", "b").Absolute(root).UniqueKey(),
		},
		"ConfigResourceOfInstances": {
			reason: "Every instance of a module shares one configuration object.",
			a:      managed("a", "b").Absolute(ModuleInstance{{Name: "m", Key: IntKey(0)}}).Config().UniqueKey(),
			b:      managed("a", "b").Absolute(ModuleInstance{{Name: "m", Key: IntKey(1)}}).Config().UniqueKey(), want: true,
		},
		"LocalsOfModuleInstances": {
			a: LocalValue{Name: "x"}.Absolute(ModuleInstance{{Name: "m", Key: IntKey(0)}}).UniqueKey(),
			b: LocalValue{Name: "x"}.Absolute(ModuleInstance{{Name: "m", Key: IntKey(1)}}).UniqueKey(),
		},
		"ModuleVersusModuleInstance": {
			a: Module{"m"}.UniqueKey(),
			b: ModuleInstance{{Name: "m"}}.UniqueKey(),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.a == tc.b; got != tc.want {
				t.Errorf("%s\n%#v == %#v is %t, want %t", tc.reason, tc.a, tc.b, got, tc.want)
			}
			// Keys must work as map keys, which == alone does not prove for
			// interface values holding uncomparable types.
			m := map[UniqueKey]int{tc.a: 1}
			if _, found := m[tc.b]; found != tc.want {
				t.Errorf("%s\nmap lookup found=%t, want %t", tc.reason, found, tc.want)
			}
		})
	}
}

func TestModuleInstanceString(t *testing.T) {
	cases := map[string]struct {
		m    ModuleInstance
		want string
	}{
		"Root":   {m: RootModuleInstance, want: ""},
		"One":    {m: ModuleInstance{{Name: "a"}}, want: "module.a"},
		"Keyed":  {m: ModuleInstance{{Name: "a", Key: StringKey("x")}, {Name: "b", Key: IntKey(2)}}, want: `module.a["x"].module.b[2]`},
		"Nested": {m: ModuleInstance{{Name: "a"}, {Name: "b"}}, want: "module.a.module.b"},
		"BigAndNegativeKeys": {
			m:    ModuleInstance{{Name: "a", Key: IntKey(math.MaxInt)}, {Name: "b", Key: IntKey(math.MinInt)}, {Name: "c", Key: IntKey(0)}},
			want: fmt.Sprintf("module.a[%d].module.b[%d].module.c[0]", math.MaxInt, math.MinInt),
		},
		"EscapedKey": {m: ModuleInstance{{Name: "a", Key: StringKey("x\"${y}\n")}}, want: `module.a["x\"$${y}\n"]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.m.String()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
			addr := managed("t", "n").Instance(NoKey).Absolute(tc.m)
			wantAddr := "t.n"
			if tc.want != "" {
				wantAddr = tc.want + ".t.n"
			}
			if diff := cmp.Diff(wantAddr, addr.String()); diff != "" {
				t.Errorf("instance address: -want +got:\n%s", diff)
			}
		})
	}
}
