package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// fakeEphemeral is an ephemeral resource provider that logs each call
// ("open a", "renew a/1", "close a/2": the name, and the private data
// the call got) and renews an instance renewals times, each due at once.
type fakeEphemeral struct {
	providers.Interface
	renewals int
	result   func(config cty.Value) cty.Value
	renewErr bool

	mu      sync.Mutex
	log     []string
	renewed chan struct{}
	// closeCtxErr is the error of the context Close was given.
	closeCtxErr error
}

func (f *fakeEphemeral) record(s string) {
	f.mu.Lock()
	f.log = append(f.log, s)
	f.mu.Unlock()
}

func (f *fakeEphemeral) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

func (f *fakeEphemeral) GetEphemeralResourceSchemas(context.Context) providers.GetEphemeralResourceSchemasResponse {
	return providers.GetEphemeralResourceSchemasResponse{}
}

func (f *fakeEphemeral) ValidateEphemeralResourceConfig(context.Context, providers.ValidateEphemeralResourceConfigRequest) providers.ValidateEphemeralResourceConfigResponse {
	return providers.ValidateEphemeralResourceConfigResponse{}
}

func (f *fakeEphemeral) OpenEphemeralResource(_ context.Context, req providers.OpenEphemeralResourceRequest) providers.OpenEphemeralResourceResponse {
	name := req.Config.GetAttr("name").AsString()
	f.record("open " + name)
	resp := providers.OpenEphemeralResourceResponse{Result: f.result(req.Config), Private: []byte(name + "/0")}
	if f.renewals > 0 {
		resp.RenewAt = time.Now()
	}
	return resp
}

func (f *fakeEphemeral) RenewEphemeralResource(_ context.Context, req providers.RenewEphemeralResourceRequest) providers.RenewEphemeralResourceResponse {
	f.record("renew " + string(req.Private))
	name, n, _ := strings.Cut(string(req.Private), "/")
	var i int
	fmt.Sscan(n, &i)
	resp := providers.RenewEphemeralResourceResponse{Private: []byte(fmt.Sprintf("%s/%d", name, i+1))}
	if f.renewErr {
		resp.Diagnostics = diags.Diagnostics{diags.Errorf("Token revoked", "The token cannot be renewed.")}
	}
	if i+1 < f.renewals {
		resp.RenewAt = time.Now()
	}
	if f.renewed != nil {
		f.renewed <- struct{}{}
	}
	return resp
}

func (f *fakeEphemeral) CloseEphemeralResource(ctx context.Context, req providers.CloseEphemeralResourceRequest) providers.CloseEphemeralResourceResponse {
	f.record("close " + string(req.Private))
	f.mu.Lock()
	f.closeCtxErr = ctx.Err()
	f.mu.Unlock()
	return providers.CloseEphemeralResourceResponse{}
}

// tokenSchema: a required name, a computed value and a sensitive secret.
var tokenSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"name":   {Type: cty.String, Required: true},
	"value":  {Type: cty.String, Computed: true},
	"secret": {Type: cty.String, Computed: true, Sensitive: true},
}}

func tokenResult(config cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": config.GetAttr("name"), "value": str("v"), "secret": str("s")})
}

func tokenConfig(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": str(name), "value": nullStr, "secret": nullStr})
}

func tokenTarget(f *fakeEphemeral, name string) *Target {
	r := addrs.Resource{Mode: addrs.EphemeralResourceMode, Type: "test_token", Name: name}
	return &Target{Addr: r.Instance(addrs.NoKey).Absolute(addrs.RootModuleInstance).Object(addrs.NotDeposed), Provider: f, ProviderAddr: provAdr, Schema: tokenSchema}
}

func TestOpenEphemeralMarks(t *testing.T) {
	f := &fakeEphemeral{result: tokenResult}
	e := NewEphemerals(nil)
	val, ds := e.Open(context.Background(), tokenTarget(f, "a"), tokenConfig("a"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if !val.HasMark(marks.Ephemeral) {
		t.Errorf("the value is not marked ephemeral: %#v", val)
	}
	if !val.GetAttr("secret").HasMark(configschema.SensitiveMark) {
		t.Errorf("the schema's sensitive attribute is not marked sensitive")
	}
	if !val.GetAttr("value").HasMark(marks.Ephemeral) {
		t.Errorf("an attribute of the value is not ephemeral")
	}
	_ = e.CloseAll(context.Background())
}

func TestOpenEphemeralContract(t *testing.T) {
	cases := map[string]struct {
		reason string
		result cty.Value
	}{
		"Null":    {reason: "A null result is the provider's bug.", result: cty.NullVal(tokenSchema.ImpliedType())},
		"Unknown": {reason: "Open's result must be wholly known.", result: cty.ObjectVal(map[string]cty.Value{"name": str("a"), "value": unkStr, "secret": str("s")})},
		"Shape":   {reason: "A result of another type is refused.", result: cty.ObjectVal(map[string]cty.Value{"name": str("a")})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeEphemeral{result: func(cty.Value) cty.Value { return tc.result }}
			e := NewEphemerals(nil)
			_, ds := e.Open(context.Background(), tokenTarget(f, "a"), tokenConfig("a"))
			if len(ds) != 1 || ds[0].Summary != "Provider produced invalid object" {
				t.Errorf("%s\ngot %v, want one \"Provider produced invalid object\"", tc.reason, ds)
			}
			if ds := e.CloseAll(context.Background()); len(ds) != 0 {
				t.Errorf("CloseAll: %v", ds)
			}
			if diff := cmp.Diff([]string{"open a"}, f.calls()); diff != "" {
				t.Errorf("what failed to open is not closed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEphemeralsRenewAndClose: a renewal due is made with the private
// data of the latest answer, and closing stops renewing and sends the
// last private data, the last opened first, even when the run's context
// is cancelled.
func TestEphemeralsRenewAndClose(t *testing.T) {
	f := &fakeEphemeral{result: tokenResult, renewals: 2, renewed: make(chan struct{}, 2)}
	g := &fakeEphemeral{result: tokenResult}
	ctx, cancel := context.WithCancel(context.Background())
	var hooked []string
	var mu sync.Mutex
	// renewalsHeard says a renewal's end was reported: the fake's
	// renewed channel fires inside Renew, before the hook hears of it.
	renewalsHeard := make(chan struct{}, 2)
	e := NewEphemerals(func(addr addrs.AbsResourceInstance, op EphemeralOp, done bool, _ time.Duration) {
		mu.Lock()
		hooked = append(hooked, fmt.Sprintf("%s %c %t", addr, op, done))
		mu.Unlock()
		if op == EphemeralRenew && done {
			renewalsHeard <- struct{}{}
		}
	})
	if _, ds := e.Open(ctx, tokenTarget(f, "a"), tokenConfig("a")); ds.HasErrors() {
		t.Fatal(ds)
	}
	<-renewalsHeard
	<-renewalsHeard
	if _, ds := e.Open(ctx, tokenTarget(g, "b"), tokenConfig("b")); ds.HasErrors() {
		t.Fatal(ds)
	}
	cancel()
	if ds := e.CloseAll(ctx); len(ds) != 0 {
		t.Fatal(ds)
	}
	if diff := cmp.Diff([]string{"open a", "renew a/0", "renew a/1", "close a/2"}, f.calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"open b", "close b/0"}, g.calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if f.closeCtxErr != nil {
		t.Errorf("Close got a cancelled context: %v", f.closeCtxErr)
	}
	want := []string{
		"ephemeral.test_token.a O false", "ephemeral.test_token.a O true",
		"ephemeral.test_token.a R false", "ephemeral.test_token.a R true",
		"ephemeral.test_token.a R false", "ephemeral.test_token.a R true",
		"ephemeral.test_token.b O false", "ephemeral.test_token.b O true",
		"ephemeral.test_token.b C false", "ephemeral.test_token.b C true",
		"ephemeral.test_token.a C false", "ephemeral.test_token.a C true",
	}
	if diff := cmp.Diff(want, hooked); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	if _, ds := e.Open(context.Background(), tokenTarget(g, "c"), tokenConfig("c")); !ds.HasErrors() {
		t.Errorf("a set that was closed opened another")
	}
}

// TestEphemeralsRenewError: a failed renewal stops renewing and is
// reported when the set closes; the instance is still closed.
func TestEphemeralsRenewError(t *testing.T) {
	f := &fakeEphemeral{result: tokenResult, renewals: 3, renewErr: true, renewed: make(chan struct{}, 3)}
	e := NewEphemerals(nil)
	if _, ds := e.Open(context.Background(), tokenTarget(f, "a"), tokenConfig("a")); ds.HasErrors() {
		t.Fatal(ds)
	}
	<-f.renewed
	ds := e.CloseAll(context.Background())
	if len(ds) != 1 || ds[0].Summary != "Token revoked" || ds[0].Address != "ephemeral.test_token.a" {
		t.Errorf("got %v, want the renewal's error at the instance", ds)
	}
	if diff := cmp.Diff([]string{"open a", "renew a/0", "close a/0"}, f.calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}
