package server

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/plans"
)

func TestGenericModuleSpec(t *testing.T) {
	cases := map[string]struct {
		reason  string
		in      resource.PropertyMap
		want    moduleSpec
		wantErr bool
	}{
		"local": {
			reason: "a source and the variables map",
			in: resource.PropertyMap{"source": resource.NewStringProperty("./mod"),
				"inputs": resource.NewObjectProperty(resource.PropertyMap{"n": resource.NewNumberProperty(2)})},
			want: moduleSpec{Source: modulerun.Source{Source: "./mod"}, Vars: resource.PropertyMap{"n": resource.NewNumberProperty(2)}},
		},
		"registry": {
			reason: "a registry source takes a version",
			in:     resource.PropertyMap{"source": resource.NewStringProperty("ns/name/aws"), "version": resource.NewStringProperty("1.2.0")},
			want:   moduleSpec{Source: modulerun.Source{Source: "ns/name/aws", Version: "1.2.0"}, Vars: resource.PropertyMap{}},
		},
		"secret inputs": {
			reason: "a secret map makes every variable in it secret",
			in: resource.PropertyMap{"source": resource.NewStringProperty("./mod"),
				"inputs": resource.MakeSecret(resource.NewObjectProperty(resource.PropertyMap{"p": resource.NewStringProperty("x")}))},
			want: moduleSpec{Source: modulerun.Source{Source: "./mod"}, Vars: resource.PropertyMap{"p": resource.MakeSecret(resource.NewStringProperty("x"))}},
		},
		"no source": {
			reason:  "source is required",
			in:      resource.PropertyMap{},
			wantErr: true,
		},
		"unknown source": {
			reason:  "the module must be known to plan it",
			in:      resource.PropertyMap{"source": resource.MakeComputed(resource.NewStringProperty(""))},
			wantErr: true,
		},
		"inputs not a map": {
			reason:  "inputs are the variables by name",
			in:      resource.PropertyMap{"source": resource.NewStringProperty("./mod"), "inputs": resource.NewStringProperty("x")},
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := genericModuleSpec(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s: err = %v, want error %v", tc.reason, err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestModuleSpecValues(t *testing.T) {
	spec := moduleSpec{Vars: resource.PropertyMap{
		"snake_name": resource.NewStringProperty("a"),
		"secret":     resource.MakeSecret(resource.NewStringProperty("s")),
		"later":      resource.MakeComputed(resource.NewStringProperty("")),
	}}
	got, err := spec.values()
	if err != nil {
		t.Fatal(err)
	}
	if v := got["snake_name"]; !v.RawEquals(cty.StringVal("a")) {
		t.Errorf("snake_name = %#v: variable names are kept verbatim", v)
	}
	if v := got["secret"]; !v.IsMarked() {
		t.Errorf("secret = %#v, want marked sensitive", v)
	}
	if v := got["later"]; v.IsKnown() {
		t.Errorf("later = %#v, want unknown", v)
	}
}

func TestChildDiff(t *testing.T) {
	obj := func(input, id string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal(input), "id": cty.StringVal(id)})
	}
	cases := map[string]struct {
		reason string
		inst   modulerun.Instance
		want   *pulumirpc.DiffResponse
	}{
		"no-op": {
			reason: "an unchanged instance has no diff",
			inst:   modulerun.Instance{Action: plans.NoOp, Before: obj("a", "1"), After: obj("a", "1")},
			want:   &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_NONE},
		},
		"update": {
			reason: "an update names the attributes that change",
			inst:   modulerun.Instance{Action: plans.Update, Before: obj("a", "1"), After: obj("b", "1")},
			want: &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_SOME, HasDetailedDiff: true, Diffs: []string{"input"},
				DetailedDiff: map[string]*pulumirpc.PropertyDiff{"input": {Kind: pulumirpc.PropertyDiff_UPDATE}}},
		},
		"replace": {
			reason: "a replacement names the attribute that forces it, and deletes first when the plan does",
			inst: modulerun.Instance{Action: plans.DeleteThenCreate, Before: obj("a", "1"),
				After:        cty.ObjectVal(map[string]cty.Value{"input": cty.StringVal("b"), "id": cty.UnknownVal(cty.String)}),
				ReplacePaths: []cty.Path{cty.GetAttrPath("input")}},
			want: &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_SOME, HasDetailedDiff: true, DeleteBeforeReplace: true,
				Diffs: []string{"id", "input"}, Replaces: []string{"input"},
				DetailedDiff: map[string]*pulumirpc.PropertyDiff{"id": {Kind: pulumirpc.PropertyDiff_UPDATE}, "input": {Kind: pulumirpc.PropertyDiff_UPDATE_REPLACE}}},
		},
		"tainted": {
			reason: "a replacement no attribute forces still replaces",
			inst:   modulerun.Instance{Action: plans.CreateThenDelete, Before: obj("a", "1"), After: obj("a", "1")},
			want: &pulumirpc.DiffResponse{Changes: pulumirpc.DiffResponse_DIFF_SOME, HasDetailedDiff: true, Replaces: []string{"id"},
				DetailedDiff: map[string]*pulumirpc.PropertyDiff{"id": {Kind: pulumirpc.PropertyDiff_UPDATE_REPLACE}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := childDiff(tc.inst)
			if diff := cmp.Diff(tc.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("%s: (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestModuleResourceDispatch(t *testing.T) {
	s := New(Info{Name: "terraform", Modules: &modulerun.Options{}}, noProvider, nil)
	plain := New(Info{Name: "terraform"}, noProvider, nil)
	cases := map[string]struct {
		reason string
		s      *Server
		typ    string
		want   string
	}{
		"state":       {reason: "the package's ModuleState", s: s, typ: "terraform:index:ModuleState", want: "state"},
		"typed state": {reason: "a parameterized package's ModuleState", s: s, typ: "vpc:index:ModuleState", want: "state"},
		"child":       {reason: "an instance type", s: s, typ: "terraform:tf:terraform_data", want: "child"},
		"resource":    {reason: "the provider's own resources are not the module's", s: s, typ: "terraform:index/data:Data", want: ""},
		"not served":  {reason: "a server without modules answers none", s: plain, typ: "terraform:tf:terraform_data", want: ""},
		"not a token": {reason: "a malformed type", s: s, typ: "nonsense", want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, ok := tc.s.moduleResource(tc.typ, "")
			got := ""
			switch m.(type) {
			case stateResource:
				got = "state"
			case childResource:
				got = "child"
			}
			if !ok {
				got = ""
			}
			if got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
			}
		})
	}
	for _, srv := range []*Server{s, plain} {
		_ = srv.Close()
	}
}

// TestModuleStateWithoutConstruct runs what "pulumi refresh" and
// "pulumi destroy" call on ModuleState, with no Construct running: Diff
// reports no change, Create and Update refuse, Read refreshes and
// Delete destroys the module's state.
func TestModuleStateWithoutConstruct(t *testing.T) {
	ctx := context.Background()
	opts := modulerun.Options{BaseDir: "../../modulerun/testdata"}
	s := New(Info{Name: "terraform", Modules: &opts}, noProvider, nil)
	defer s.Close()
	mod, ds := modulerun.Load(ctx, modulerun.Source{Source: "./three"}, opts)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	vars := map[string]cty.Value{"prefix": cty.StringVal("a")}
	p, ds := mod.Plan(ctx, plans.NormalMode, vars, nil)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	applied, ds := mod.Apply(ctx, p)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	urn := "urn:pulumi:dev::p::terraform:index:Module::net"
	inputs, err := marshal(resource.PropertyMap{
		"moduleUrn": resource.NewStringProperty(urn), "source": resource.NewStringProperty("./three"),
		"inputs": resource.NewObjectProperty(resource.PropertyMap{"prefix": resource.NewStringProperty("a")}),
	})
	if err != nil {
		t.Fatal(err)
	}
	state, err := stateOutputs(applied.State)
	if err != nil {
		t.Fatal(err)
	}
	r := stateResource{s}
	diff, err := r.Diff(ctx, &pulumirpc.DiffRequest{News: inputs, Olds: state})
	if err != nil || diff.GetChanges() != pulumirpc.DiffResponse_DIFF_NONE {
		t.Errorf("Diff = %v, %v; want no change", diff, err)
	}
	if _, err := r.Create(ctx, &pulumirpc.CreateRequest{Properties: inputs}); err == nil {
		t.Error("Create with no Construct running succeeded")
	}
	read, err := r.Read(ctx, &pulumirpc.ReadRequest{Id: moduleStateID, Inputs: inputs, Properties: state})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	refreshed, err := stateOf(read.GetProperties())
	if err != nil || len(refreshed) == 0 {
		t.Fatalf("Read returned state %q, %v", refreshed, err)
	}
	if _, err := r.Delete(ctx, &pulumirpc.DeleteRequest{OldInputs: inputs, Properties: read.GetProperties()}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
}

// TestModuleErrorAt checks a module's errors name the file and line
// under the module's source.
func TestModuleErrorAt(t *testing.T) {
	ctx := context.Background()
	src := modulerun.Source{Source: "./badref"}
	mod, ds := modulerun.Load(ctx, src, modulerun.Options{BaseDir: "../../modulerun/testdata"})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	_, ds = mod.Plan(ctx, plans.NormalMode, nil, nil)
	err := moduleError(src, ds)
	if err == nil {
		t.Fatal("no error")
	}
	want := "./badref/main.tf:6,11: Reference to undeclared resource"
	if got := err.Error(); !strings.Contains(got, want) {
		t.Errorf("error %q does not name %q", got, want)
	}
}

// noProvider is the loader of servers whose tests need only the module
// host.
func noProvider() (*Provider, error) { return nil, errors.New("no provider in this test") }
