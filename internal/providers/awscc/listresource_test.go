package awscc

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/providers"
)

// createLogGroups makes n log groups g-000, g-001, ... through the
// endpoint, behind the provider's back, each with a seven-day retention.
func createLogGroups(t testing.TB, e *ccendpoint.Endpoint, n int) {
	t.Helper()
	client := cloudcontrol.New(cloudcontrol.Options{Region: "eu-west-1", BaseEndpoint: aws.String(e.URL), Credentials: aws.AnonymousCredentials{}})
	ctx := context.Background()
	rt := &runtime{api: client, poll: fastPolls, stop: ctx}
	for i := range n {
		out, err := client.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"),
			DesiredState: aws.String(fmt.Sprintf(`{"LogGroupName":"g-%03d","RetentionInDays":7}`, i))})
		if err == nil {
			_, err = rt.await(ctx, out.ProgressEvent)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// configuredInstance is the provider over dir as the engine runs it (the
// tfproto6 adapter over the framework server), configured for e.
func configuredInstance(t testing.TB, dir string, e *ccendpoint.Endpoint) providers.Interface {
	t.Helper()
	p, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.testBackoff = &fastPolls
	inst, _ := p.Factory()()
	ctx := context.Background()
	s := inst.GetProviderSchema(ctx)
	endpoints := s.Provider.Block.ImpliedType().AttributeType("endpoints")
	cfg := object(s.Provider.Block.ImpliedType(), map[string]cty.Value{
		"region": cty.StringVal("eu-west-1"), "access_key": cty.StringVal("AKID"), "secret_key": cty.StringVal("SECRET"),
		"skip_metadata_api_check": cty.True, "endpoints": object(endpoints, map[string]cty.Value{"cloudcontrolapi": cty.StringVal(e.URL)}),
	})
	if ds := inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cfg}).Diagnostics; ds.HasErrors() {
		t.Fatalf("configure: %v", ds)
	}
	return inst
}

// TestListResourceLogGroups lists 250 log groups through the provider
// contract against Cairn's endpoint. Identities and display names come
// from the ListResources pages alone: 3 calls for 250 objects. Resource
// objects come from the same pages, after one GetResource that checks a
// page holds every property; a limit stops the paging early.
func TestListResourceLogGroups(t *testing.T) {
	e, dir := startCountingEndpoint(t, "AWS::Logs::LogGroup")
	createLogGroups(t, e, 250)
	inst := configuredInstance(t, dir, e)
	lp, ok := inst.(providers.ListResourceProvider)
	if !ok {
		t.Fatalf("%T does not list resources", inst)
	}
	cases := map[string]struct {
		reason   string
		include  bool
		limit    int64
		want     int
		wantList int
		wantGet  int
	}{
		"identities": {reason: "Identities need the pages only.", want: 250, wantList: 3},
		"objects":    {reason: "Pages hold every property: one GetResource checks it.", include: true, want: 250, wantList: 3, wantGet: 1},
		"limit":      {reason: "120 results need two pages.", limit: 120, want: 120, wantList: 2},
	}
	ctx := context.Background()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e.ResetCalls()
			resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: "awscc_logs_log_group", Config: cty.EmptyObjectVal,
				IncludeResourceObject: tc.include, Limit: tc.limit})
			if resp.Diagnostics.HasErrors() {
				t.Fatal(resp.Diagnostics)
			}
			var got []providers.ListResult
			for r := range resp.Results {
				if r.Diagnostics.HasErrors() {
					t.Fatal(r.Diagnostics)
				}
				got = append(got, r)
			}
			if len(got) != tc.want {
				t.Fatalf("%s\n%d results, want %d", tc.reason, len(got), tc.want)
			}
			calls, _ := e.Calls()
			if calls["ListResources"] != tc.wantList || calls["GetResource"] != tc.wantGet {
				t.Errorf("%s\ncalls %v, want %d ListResources and %d GetResource", tc.reason, calls, tc.wantList, tc.wantGet)
			}
			r := got[7]
			want := cty.ObjectVal(map[string]cty.Value{"account_id": cty.StringVal("123456789012"), "log_group_name": cty.StringVal("g-007"), "region": cty.StringVal("eu-west-1")})
			if !r.Identity.RawEquals(want) || r.DisplayName != "g-007" {
				t.Errorf("result 7: identity %#v, display name %q; want %#v, g-007", r.Identity, r.DisplayName, want)
			}
			if !tc.include {
				if r.ResourceObject != cty.NilVal {
					t.Errorf("a resource object was sent unasked: %#v", r.ResourceObject)
				}
				return
			}
			obj := r.ResourceObject.AsValueMap()
			if diff := cmp.Diff([]string{"g-007", "7"}, []string{obj["id"].AsString(), obj["retention_in_days"].AsBigFloat().String()}); diff != "" {
				t.Errorf("resource object (-want +got):\n%s", diff)
			}
		})
	}
}

// BenchmarkListResourceLogGroups lists 1,000 log groups of Cairn's
// endpoint through the provider contract (the tfproto6 adapter over the
// framework server), identities only and with resource objects. The
// metrics are the Cloud Control calls of one listing. Run with
// -benchtime=3x: the figures are in docs/design/performance.md.
func BenchmarkListResourceLogGroups(b *testing.B) {
	const n = 1000
	e, dir := startCountingEndpoint(b, "AWS::Logs::LogGroup")
	createLogGroups(b, e, n)
	inst := configuredInstance(b, dir, e)
	lp := inst.(providers.ListResourceProvider)
	ctx := context.Background()
	for _, include := range []bool{false, true} {
		name := "identities"
		if include {
			name = "objects"
		}
		b.Run(name, func(b *testing.B) {
			var calls ccendpoint.Calls
			b.ReportAllocs()
			for b.Loop() {
				e.ResetCalls()
				resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: "awscc_logs_log_group", Config: cty.EmptyObjectVal, IncludeResourceObject: include})
				got := 0
				for r := range resp.Results {
					if r.Diagnostics.HasErrors() {
						b.Fatal(r.Diagnostics)
					}
					got++
				}
				if got != n {
					b.Fatalf("%d results, want %d", got, n)
				}
				calls, _ = e.Calls()
			}
			b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
			b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
		})
	}
}
