package awscc

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/providers"
)

// TestIdentityAttributes checks the rules of a type's identity on real
// schemas, one case per rule. (cmd/terraform-provider-awscc compares
// every type with HashiCorp's awscc v1.97 over the wire.)
func TestIdentityAttributes(t *testing.T) {
	type attr struct {
		Name, Description string
		Required          bool
	}
	acct := attr{Name: "account_id", Description: accountIDDescription}
	region := attr{Name: "region", Description: regionDescription}
	cases := map[string]struct {
		reason   string
		typeName string
		want     []attr
	}{
		"log group": {
			reason: "The primary identifier's first sentence describes it; account and region are optional.", typeName: "AWS::Logs::LogGroup",
			want: []attr{acct, {Name: "log_group_name", Description: "The name of the log group", Required: true}, region},
		},
		"top-level id": {
			reason: "A top-level Id is id in the identity, though the resource calls it <resource>_id.", typeName: "AWS::WAFv2::IPSet",
			want: []attr{acct, {Name: "id", Description: "Id of the IPSet", Required: true}, {Name: "name", Description: "Name of the IPSet", Required: true}, region, {Name: "scope", Description: "Use CLOUDFRONT for CloudFront IPSet, use REGIONAL for Application Load Balancer and API Gateway", Required: true}},
		},
		"global": {
			reason: "IAM is global: no region.", typeName: "AWS::IAM::Role",
			want: []attr{acct, {Name: "role_name", Description: "A name for the IAM role, up to 64 characters in length", Required: true}},
		},
		"global with its own region": {
			reason: "A global type whose identifier is a region keeps it, required.", typeName: "AWS::Notifications::NotificationHub",
			want: []attr{acct, {Name: "region", Description: "Region that NotificationHub is present in", Required: true}},
		},
		"identifier named like a default": {
			reason: "An AccountId identifier gives way to the optional account_id.", typeName: "AWS::Organizations::Account",
			want: []attr{acct},
		},
		"nested": {
			reason: "A nested pointer joins its steps and has no description.", typeName: "AWS::S3::StorageLens",
			want: []attr{acct, region, {Name: "storage_lens_configuration_id", Required: true}},
		},
		"renamed": {
			reason: "Provider is provider_name, undescribed.", typeName: "AWS::CodePipeline::CustomActionType",
			want: []attr{acct, {Name: "category", Description: "The category of the custom action, such as a build action or a test action", Required: true},
				{Name: "provider_name", Required: true}, region, {Name: "version", Description: "The version identifier of the custom action", Required: true}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir, _ := corpusSchemas(t, []string{tc.typeName})
			c, _ := cfnschema.LoadDir(dir)
			rt := c.Type(tc.typeName)
			if rt == nil {
				t.Fatalf("%s did not load", tc.typeName)
			}
			var got []attr
			for _, a := range identityAttributes(rt) {
				got = append(got, attr{a.name, a.description, a.required})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestIdentityThroughContract drives identities through the provider
// contract against Cairn's endpoint: the schema, an import by identity
// alone, the identity a read returns, and an identity for another region
// refused.
func TestIdentityThroughContract(t *testing.T) {
	e, dir := startCountingEndpoint(t, "AWS::Logs::LogGroup")
	createLogGroups(t, e, 1)
	inst := configuredInstance(t, dir, e)
	ip := inst.(providers.IdentityProvider)
	ctx := context.Background()
	s := ip.GetResourceIdentitySchemas(ctx)
	if s.Diagnostics.HasErrors() {
		t.Fatal(s.Diagnostics)
	}
	want := providers.IdentitySchema{Attributes: []providers.IdentityAttribute{
		{Name: "account_id", Type: cty.String, Description: accountIDDescription, OptionalForImport: true},
		{Name: "log_group_name", Type: cty.String, Description: "The name of the log group", RequiredForImport: true},
		{Name: "region", Type: cty.String, Description: regionDescription, OptionalForImport: true},
	}}
	if diff := cmp.Diff(want, s.IdentityTypes["awscc_logs_log_group"], cmp.Comparer(func(a, b cty.Type) bool { return a.Equals(b) })); diff != "" {
		t.Errorf("identity schema (-want +got):\n%s", diff)
	}
	identity := func(region string) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"account_id": cty.NullVal(cty.String), "log_group_name": cty.StringVal("g-000"), "region": cty.StringVal(region)})
	}
	imp := inst.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "awscc_logs_log_group", Identity: identity("eu-west-1")})
	if imp.Diagnostics.HasErrors() || len(imp.ImportedResources) != 1 {
		t.Fatalf("import by identity: %v", imp.Diagnostics)
	}
	obj := imp.ImportedResources[0]
	if id := obj.State.GetAttr("id"); !id.RawEquals(cty.StringVal("g-000")) {
		t.Errorf("imported id %#v, want g-000", id)
	}
	read := inst.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "awscc_logs_log_group", PriorState: obj.State, Private: obj.Private,
		CurrentIdentity: obj.Identity, ProviderMeta: cty.NullVal(cty.EmptyObject)})
	if read.Diagnostics.HasErrors() {
		t.Fatal(read.Diagnostics)
	}
	wantID := cty.ObjectVal(map[string]cty.Value{"account_id": cty.StringVal("123456789012"), "log_group_name": cty.StringVal("g-000"), "region": cty.StringVal("eu-west-1")})
	if !read.NewIdentity.RawEquals(wantID) {
		t.Errorf("identity after read %#v, want %#v", read.NewIdentity, wantID)
	}
	other := inst.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "awscc_logs_log_group", Identity: identity("us-east-1")})
	if got := summarize(other.Diagnostics); len(got) != 1 || got[0].Summary != "Identity for another region" {
		t.Errorf("import of another region's identity: %v", got)
	}
}

// BenchmarkImportByIdentity imports 100 log groups of Cairn's endpoint by
// identity alone and reads each, as an import block with identity does:
// the import costs no call (the identifier is the identity's parts), the
// reads go through the list cache. The metrics are the Cloud Control
// calls of the 100 imports. Run with -benchtime=3x.
func BenchmarkImportByIdentity(b *testing.B) {
	const n = 100
	e, dir := startCountingEndpoint(b, "AWS::Logs::LogGroup")
	createLogGroups(b, e, n)
	ctx := context.Background()
	inst := configuredInstance(b, dir, e)
	var calls map[string]int
	b.ReportAllocs()
	for b.Loop() {
		e.ResetCalls()
		for i := range n {
			id := cty.ObjectVal(map[string]cty.Value{"account_id": cty.NullVal(cty.String), "log_group_name": cty.StringVal(fmt.Sprintf("g-%03d", i)), "region": cty.NullVal(cty.String)})
			imp := inst.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "awscc_logs_log_group", Identity: id})
			if imp.Diagnostics.HasErrors() {
				b.Fatal(imp.Diagnostics)
			}
			obj := imp.ImportedResources[0]
			read := inst.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "awscc_logs_log_group", PriorState: obj.State, Private: obj.Private,
				CurrentIdentity: obj.Identity, ProviderMeta: cty.NullVal(cty.EmptyObject)})
			if read.Diagnostics.HasErrors() || read.NewIdentity.IsNull() {
				b.Fatal(read.Diagnostics)
			}
		}
		calls, _ = e.Calls()
	}
	b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
	b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
}
