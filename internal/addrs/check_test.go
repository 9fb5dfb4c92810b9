package addrs

import "testing"

func TestAbsCheck(t *testing.T) {
	inst := ModuleInstance{{Name: "m", Key: StringKey("a")}}
	cases := map[string]struct {
		addr                 AbsCheck
		wantString, wantConf string
	}{
		"Root":           {Check{Name: "c"}.Absolute(RootModuleInstance), "check.c", "check.c"},
		"ModuleInstance": {Check{Name: "c"}.Absolute(inst), `module.m["a"].check.c`, "module.m.check.c"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.addr.String(); got != tc.wantString {
				t.Errorf("String() = %q, want %q", got, tc.wantString)
			}
			if got := tc.addr.ConfigString(); got != tc.wantConf {
				t.Errorf("ConfigString() = %q, want %q", got, tc.wantConf)
			}
		})
	}
	a, b := Check{Name: "c"}.Absolute(inst), Check{Name: "c"}.Absolute(ModuleInstance{{Name: "m", Key: StringKey("a")}})
	if a.UniqueKey() != b.UniqueKey() {
		t.Error("equal addresses have different keys")
	}
	if a.UniqueKey() == (Check{Name: "c"}.Absolute(RootModuleInstance)).UniqueKey() {
		t.Error("checks in different module instances share a key")
	}
	if (LocalValue{Name: "c"}.Absolute(inst)).UniqueKey() == a.UniqueKey() {
		t.Error("a check's key collides with a local value's")
	}
}
