package namedvals

import (
	"fmt"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

var ctyOpts = cmp.Options{
	cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }),
}

var (
	res    = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}.Absolute(addrs.RootModuleInstance)
	root   = addrs.RootModuleInstance
	instTy = cty.Object(map[string]cty.Type{"id": cty.String})
)

func inst(id string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}) }

func unknownInst() cty.Value { return cty.UnknownVal(instTy) }

func TestResource(t *testing.T) {
	type setInstance struct {
		key addrs.InstanceKey
		val cty.Value
	}
	cases := map[string]struct {
		reason    string
		declare   bool
		exp       *instances.Expansion
		ty        cty.Type
		instances []setInstance
		want      cty.Value
	}{
		"Single": {
			declare:   true,
			exp:       instances.SingleExpansion(),
			ty:        instTy,
			instances: []setInstance{{addrs.NoKey, inst("x")}},
			want:      inst("x"),
		},
		"SingleMissing": {
			reason:  "An instance not planned yet is unknown of the instance type, so attribute access type-checks.",
			declare: true,
			exp:     instances.SingleExpansion(),
			ty:      instTy,
			want:    unknownInst(),
		},
		"Count": {
			declare:   true,
			exp:       instances.CountExpansion(3),
			ty:        instTy,
			instances: []setInstance{{addrs.IntKey(0), inst("a")}, {addrs.IntKey(2), inst("c")}},
			want:      cty.TupleVal([]cty.Value{inst("a"), unknownInst(), inst("c")}),
		},
		"CountIgnoresExtraInstances": {
			reason:    "Instances beyond the expansion (orphans being deleted) are not part of the whole value.",
			declare:   true,
			exp:       instances.CountExpansion(1),
			ty:        instTy,
			instances: []setInstance{{addrs.IntKey(0), inst("a")}, {addrs.IntKey(1), inst("b")}},
			want:      cty.TupleVal([]cty.Value{inst("a")}),
		},
		"CountZero": {
			declare: true,
			exp:     instances.CountExpansion(0),
			ty:      instTy,
			want:    cty.EmptyTupleVal,
		},
		"ForEach": {
			declare: true,
			exp: instances.ForEachExpansion(map[string]cty.Value{
				"x": cty.StringVal("1"), "y": cty.StringVal("2"),
			}),
			ty:        instTy,
			instances: []setInstance{{addrs.StringKey("x"), inst("x")}},
			want:      cty.ObjectVal(map[string]cty.Value{"x": inst("x"), "y": unknownInst()}),
		},
		"ForEachEmpty": {
			declare: true,
			exp:     instances.ForEachExpansion(map[string]cty.Value{}),
			ty:      instTy,
			want:    cty.EmptyObjectVal,
		},
		"UnknownExpansion": {
			reason:    "While count or for_each is unknown, so is the whole resource, whatever instances exist.",
			declare:   true,
			exp:       instances.UnknownExpansion(),
			ty:        instTy,
			instances: []setInstance{{addrs.IntKey(0), inst("a")}},
			want:      cty.DynamicVal,
		},
		"NotDeclared": {
			want: cty.DynamicVal,
		},
		"InstancesWithoutExpansion": {
			reason:    "Instances recorded before the expansion is known do not make a whole value yet.",
			instances: []setInstance{{addrs.NoKey, inst("x")}},
			want:      cty.DynamicVal,
		},
		"NoTypeKnown": {
			reason:  "Without an instance type, a missing instance is wholly unknown.",
			declare: true,
			exp:     instances.CountExpansion(1),
			ty:      cty.NilType,
			want:    cty.TupleVal([]cty.Value{cty.DynamicVal}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			v := New(nil)
			if tc.declare {
				v.DeclareResource(res, tc.exp, tc.ty)
			}
			for _, si := range tc.instances {
				v.SetInstance(res.Instance(si.key), si.val)
			}
			got, ds := v.Data(root).Resource(res.Resource, hcl.Range{})
			if len(ds) > 0 {
				t.Fatalf("unexpected diagnostics: %s", ds.Error())
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestResourceCache(t *testing.T) {
	cases := map[string]struct {
		reason string
		change func(v *Values)
		want   cty.Value
	}{
		"SetInstanceAfterRead": {
			reason: "A cached whole value must not hide an instance recorded later.",
			change: func(v *Values) { v.SetInstance(res.Instance(addrs.IntKey(1)), inst("b")) },
			want:   cty.TupleVal([]cty.Value{inst("a"), inst("b")}),
		},
		"ReplaceInstanceAfterRead": {
			change: func(v *Values) { v.SetInstance(res.Instance(addrs.IntKey(0)), inst("a2")) },
			want:   cty.TupleVal([]cty.Value{inst("a2"), unknownInst()}),
		},
		"DeclareAfterRead": {
			reason: "Re-declaring (apply's expand node) invalidates too, and keeps recorded instances.",
			change: func(v *Values) { v.DeclareResource(res, instances.CountExpansion(1), instTy) },
			want:   cty.TupleVal([]cty.Value{inst("a")}),
		},
		"NoChange": {
			change: func(*Values) {},
			want:   cty.TupleVal([]cty.Value{inst("a"), unknownInst()}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			v := New(nil)
			v.DeclareResource(res, instances.CountExpansion(2), instTy)
			v.SetInstance(res.Instance(addrs.IntKey(0)), inst("a"))
			first, _ := v.Data(root).Resource(res.Resource, hcl.Range{})
			if want := cty.TupleVal([]cty.Value{inst("a"), unknownInst()}); !first.RawEquals(want) {
				t.Fatalf("first read = %#v", first)
			}
			tc.change(v)
			got, _ := v.Data(root).Resource(res.Resource, hcl.Range{})
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestResourceConcurrent(t *testing.T) {
	v := New(nil)
	const n = 50
	v.DeclareResource(res, instances.CountExpansion(n), instTy)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(2)
		go func() {
			defer wg.Done()
			v.SetInstance(res.Instance(addrs.IntKey(i)), inst(fmt.Sprint(i)))
		}()
		go func() {
			defer wg.Done()
			_, _ = v.Data(root).Resource(res.Resource, hcl.Range{})
		}()
	}
	wg.Wait()
	got, _ := v.Data(root).Resource(res.Resource, hcl.Range{})
	if !got.IsWhollyKnown() || got.LengthInt() != n {
		t.Fatalf("after every instance was set the whole value is %#v", got)
	}
	for i := range n {
		if e := got.Index(cty.NumberIntVal(int64(i))); !e.RawEquals(inst(fmt.Sprint(i))) {
			t.Errorf("element %d = %#v", i, e)
		}
	}
}

func TestInstance(t *testing.T) {
	v := New(nil)
	if _, ok := v.Instance(res.Instance(addrs.NoKey)); ok {
		t.Errorf("an instance never set was found")
	}
	v.SetInstance(res.Instance(addrs.StringKey("k")), inst("k"))
	got, ok := v.Instance(res.Instance(addrs.StringKey("k")))
	if !ok || !got.RawEquals(inst("k")) {
		t.Errorf("Instance = %#v, %t", got, ok)
	}
	if _, ok := v.Instance(res.Instance(addrs.StringKey("other"))); ok {
		t.Errorf("another key of the same resource was found")
	}
}

func TestVariablesAndLocals(t *testing.T) {
	v := New(map[string]cty.Value{"x": cty.StringVal("vx")})
	v.SetLocal(addrs.LocalValue{Name: "l"}.Absolute(root), cty.NumberIntVal(1))
	r := hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 4, Column: 9}, End: hcl.Pos{Line: 4, Column: 14}}

	type result struct {
		Value   cty.Value
		Summary []string
		At      []string
	}
	view := func(val cty.Value, ds diags.Diagnostics) result {
		out := result{Value: val}
		for _, d := range ds {
			out.Summary = append(out.Summary, d.Summary)
			if d.Subject != nil {
				out.At = append(out.At, fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column))
			}
		}
		return out
	}
	cases := map[string]struct {
		reason string
		got    result
		want   result
	}{
		"DeclaredVariable": {
			got:  view(v.Data(root).InputVariable(addrs.InputVariable{Name: "x"}, r)),
			want: result{Value: cty.StringVal("vx")},
		},
		"UndeclaredVariable": {
			reason: "The diagnostic points at the reference.",
			got:    view(v.Data(root).InputVariable(addrs.InputVariable{Name: "y"}, r)),
			want:   result{Value: cty.DynamicVal, Summary: []string{"Reference to undeclared input variable"}, At: []string{"main.tf:4:9"}},
		},
		"Local": {
			got:  view(v.Data(root).LocalValue(addrs.LocalValue{Name: "l"}, r)),
			want: result{Value: cty.NumberIntVal(1)},
		},
		"LocalNotEvaluated": {
			reason: "A local that failed to evaluate was already reported; readers see an unknown value.",
			got:    view(v.Data(root).LocalValue(addrs.LocalValue{Name: "m"}, r)),
			want:   result{Value: cty.DynamicVal},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	t.Run("CopiesAreIndependent", func(t *testing.T) {
		vars := v.InputVariables()
		vars["x"] = cty.StringVal("changed")
		locals := v.Locals(root)
		locals["l"] = cty.False
		if got, _ := v.Data(root).InputVariable(addrs.InputVariable{Name: "x"}, r); !got.RawEquals(cty.StringVal("vx")) {
			t.Errorf("changing InputVariables' result changed the table: %#v", got)
		}
		if got, _ := v.Data(root).LocalValue(addrs.LocalValue{Name: "l"}, r); !got.RawEquals(cty.NumberIntVal(1)) {
			t.Errorf("changing Locals' result changed the table: %#v", got)
		}
	})
}

func TestModuleInstancesAreSeparate(t *testing.T) {
	v := New(map[string]cty.Value{"x": cty.StringVal("root")})
	m0 := addrs.RootModuleInstance.Child("m", addrs.IntKey(0))
	m1 := addrs.RootModuleInstance.Child("m", addrs.IntKey(1))
	for i, m := range []addrs.ModuleInstance{m0, m1} {
		r := res.Resource.Absolute(m)
		v.DeclareResource(r, instances.SingleExpansion(), instTy)
		v.SetInstance(r.Instance(addrs.NoKey), inst(fmt.Sprint(i)))
		v.SetLocal(addrs.LocalValue{Name: "l"}.Absolute(m), cty.NumberIntVal(int64(i)))
	}
	for i, m := range []addrs.ModuleInstance{m0, m1} {
		got, _ := v.Data(m).Resource(res.Resource, hcl.Range{})
		if !got.RawEquals(inst(fmt.Sprint(i))) {
			t.Errorf("%s sees %#v", m, got)
		}
		l, _ := v.Data(m).LocalValue(addrs.LocalValue{Name: "l"}, hcl.Range{})
		if !l.RawEquals(cty.NumberIntVal(int64(i))) {
			t.Errorf("%s sees local %#v", m, l)
		}
		if _, ds := v.Data(m).InputVariable(addrs.InputVariable{Name: "x"}, hcl.Range{}); !ds.HasErrors() {
			t.Errorf("%s sees the root module's variable", m)
		}
	}
	if got, _ := v.Data(root).Resource(res.Resource, hcl.Range{}); got != cty.DynamicVal {
		t.Errorf("the root module sees a child's resource: %#v", got)
	}
}
