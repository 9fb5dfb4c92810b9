package awscc

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cc "github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/cairn-iac/cairn/cloudcontrol/boltstore"
	"github.com/cairn-iac/cairn/cloudcontrol/emulator"
	ccserver "github.com/cairn-iac/cairn/cloudcontrol/server"
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

const (
	e2eKey    = "AKIDCAIRNE2E"
	e2eSecret = "cairn-e2e-secret"
)

// e2eTypes are the real registry schemas the end-to-end tests serve.
var e2eTypes = []string{"AWS::S3::Bucket", "AWS::Logs::LogGroup", "AWS::IAM::Role", "AWS::EC2::VPC", "AWS::EC2::Subnet", "AWS::EC2::SecurityGroup",
	"AWS::Lambda::Function"}

// endpoint is Cairn's Cloud Control endpoint on a loopback listener, over
// a boltstore in a temporary directory, serving e2eTypes with emulator
// handlers; dir holds the same schemas for the provider.
type endpoint struct {
	srv    *ccserver.Server
	url    string
	dir    string
	client *cloudcontrol.Client
}

func startEndpoint(t *testing.T) *endpoint {
	t.Helper()
	db, err := boltstore.Open(filepath.Join(t.TempDir(), "cc.db"))
	if err != nil {
		t.Fatal(err)
	}
	dir, schemas := corpusSchemas(t, e2eTypes)
	types := map[string]*cc.ResourceType{}
	for _, name := range e2eTypes {
		schema := schemas[name]
		h, err := emulator.New(name, schema, db)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		types[name] = &cc.ResourceType{Name: name, Schema: schema, Handler: h}
	}
	srv, err := ccserver.New(ccserver.Options{
		Region: "eu-west-1", Requests: db, AccessKey: e2eKey, SecretKey: e2eSecret,
		Types: func(name string) (*cc.ResourceType, error) {
			if rt, ok := types[name]; ok {
				return rt, nil
			}
			return nil, errors.New("not served")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		_ = srv.Close()
		_ = db.Close()
	})
	client := cloudcontrol.New(cloudcontrol.Options{
		Region: "eu-west-1", BaseEndpoint: aws.String(hs.URL),
		Credentials: credentials.NewStaticCredentialsProvider(e2eKey, e2eSecret, ""),
	})
	return &endpoint{srv: srv, url: hs.URL, dir: dir, client: client}
}

// providerBlock configures awscc for the endpoint, with extra arguments.
func (e *endpoint) providerBlock(extra string) string {
	return fmt.Sprintf(`
provider "awscc" {
  region                  = "eu-west-1"
  access_key              = %q
  secret_key              = %q
  skip_metadata_api_check = true
  max_retries             = 10
  endpoints = { cloudcontrolapi = %q }
  %s
}
`, e2eKey, e2eSecret, e.url, extra)
}

// harness returns an engine whose awscc provider serves the endpoint's
// schemas with the real client.
func (e *endpoint) harness(t *testing.T, main string) (*enginetest.Harness, *Provider) {
	t.Helper()
	p, err := New(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	p.testBackoff = &fastPolls
	h, ds := enginetest.New(map[string]string{"main.tf": main})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.Providers[Addr] = p.Factory()
	return h, p
}

func TestEndToEndLogGroup(t *testing.T) {
	e := startEndpoint(t)
	cfg := func(days int) string {
		return e.providerBlock("") + fmt.Sprintf(`
resource "awscc_logs_log_group" "a" {
  log_group_name    = "app"
  retention_in_days = %d
}
data "awscc_logs_log_group" "a" { id = awscc_logs_log_group.a.id }
data "awscc_logs_log_groups" "all" { depends_on = [awscc_logs_log_group.a] }
`, days)
	}
	h, _ := e.harness(t, cfg(7))
	mustApply(t, h, plans.NormalMode)
	got, _ := stateAttrs(t, h.State, "awscc_logs_log_group.a")
	if got["id"] != "app" || got["arn"] == nil || got["retention_in_days"] != 7.0 {
		t.Fatalf("state after create: %v", got)
	}
	ds, _ := stateAttrs(t, h.State, "data.awscc_logs_log_group.a")
	if ds["retention_in_days"] != 7.0 || ds["arn"] != got["arn"] {
		t.Errorf("singular data source: %v", ds)
	}
	all, _ := stateAttrs(t, h.State, "data.awscc_logs_log_groups.all")
	if fmt.Sprint(all["ids"]) != "[app]" || all["id"] != "eu-west-1" {
		t.Errorf("plural data source: %v", all)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("second plan has changes: %v", actions(p))
	}

	// Drift: someone changes the retention outside Cairn.
	ctx := context.Background()
	out, err := e.client.UpdateResource(ctx, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String("app"),
		PatchDocument: aws.String(`[{"op":"replace","path":"/RetentionInDays","value":30}]`)})
	if err != nil {
		t.Fatal(err)
	}
	rt := &runtime{api: e.client, poll: fastPolls, stop: ctx}
	if _, err := rt.await(ctx, out.ProgressEvent); err != nil {
		t.Fatal(err)
	}
	// The plural data source depends on the group, so it is read again.
	if diff := strings.Join(actions(mustPlan(t, h, plans.NormalMode)), ","); !strings.Contains(diff, "awscc_logs_log_group.a update") {
		t.Fatalf("plan after drift: %q", diff)
	}
	reconfigure(t, h, cfg(14))
	mustApply(t, h, plans.NormalMode)
	if got, _ := stateAttrs(t, h.State, "awscc_logs_log_group.a"); got["retention_in_days"] != 14.0 {
		t.Errorf("after the update: %v", got)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("plan after update has changes: %v", actions(p))
	}
	mustApply(t, h, plans.DestroyMode)
	if _, err := e.client.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String("app")}); !isNotFound(err) {
		t.Errorf("after destroy, GetResource: %v, want not found", err)
	}
}

// TestEndToEndNetwork: a subnet in a VPC, a createOnly change replaces;
// a bucket with default tags and a write-only property, and a role with a
// JSON policy, have no perpetual diff.
func TestEndToEndNetwork(t *testing.T) {
	e := startEndpoint(t)
	cfg := func(cidr string) string {
		return e.providerBlock(`default_tags { tags = { team = "infra" } }`) + fmt.Sprintf(`
resource "awscc_ec2_vpc" "v" { cidr_block = "10.0.0.0/16" }
resource "awscc_ec2_subnet" "s" {
  vpc_id     = awscc_ec2_vpc.v.id
  cidr_block = %q
}
resource "awscc_s3_bucket" "b" {
  access_control = "Private"
  tags           = [{ key = "env", value = "prod" }]
}
resource "awscc_iam_role" "r" {
  assume_role_policy_document = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" }]
  })
}
`, cidr)
	}
	h, _ := e.harness(t, cfg("10.0.1.0/24"))
	mustApply(t, h, plans.NormalMode)
	b, _ := stateAttrs(t, h.State, "awscc_s3_bucket.b")
	if fmt.Sprint(b["tags"]) != "[map[key:env value:prod]]" || len(b["tags_all"].([]any)) != 2 {
		t.Errorf("bucket tags %v, tags_all %v", b["tags"], b["tags_all"])
	}
	// The endpoint never returns write-only values: state keeps the
	// configured one, so there is no diff.
	if b["access_control"] != "Private" {
		t.Errorf("bucket access_control %v, want the write-only value kept", b["access_control"])
	}
	if r, _ := stateAttrs(t, h.State, "awscc_iam_role.r"); r["arn"] == nil || !strings.Contains(fmt.Sprint(r["assume_role_policy_document"]), "sts:AssumeRole") {
		t.Errorf("role %v", r)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("second plan has changes: %v", actions(p))
	}
	reconfigure(t, h, cfg("10.0.2.0/24"))
	p := mustPlan(t, h, plans.NormalMode)
	if diff := strings.Join(actions(p), ","); !strings.Contains(diff, "awscc_ec2_subnet.s") || strings.Contains(diff, "update") {
		t.Fatalf("changing a createOnly property plans %q, want the subnet replaced", diff)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	mustApply(t, h, plans.DestroyMode)
}

// TestEndToEndFailures: a create that fails after the resource exists is
// recorded tainted; throttling is retried; a timeout cancels the request.
func TestEndToEndFailures(t *testing.T) {
	e := startEndpoint(t)
	const group = `
resource "awscc_logs_log_group" "a" {
  log_group_name = "app"
  %s
}
`
	h, _ := e.harness(t, e.providerBlock("")+fmt.Sprintf(group, ""))

	if err := e.srv.SetFault(ccserver.Fault{TypeName: "AWS::Logs::LogGroup", Operation: "CREATE", ErrorCode: cc.CodeNotStabilized, Message: "it never stabilized"}); err != nil {
		t.Fatal(err)
	}
	if ds := h.Apply(mustPlan(t, h, plans.NormalMode)); !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "it never stabilized") {
		t.Fatalf("apply: %v, want the request's failure", ds)
	}
	if got, status := stateAttrs(t, h.State, "awscc_logs_log_group.a"); status != states.ObjectTainted || got["id"] != "app" {
		t.Fatalf("after a failed create: %v %c, want id app, tainted", got, status)
	}
	e.srv.ClearFaults()

	// Throttling on every call, polls included, is retried.
	if err := e.srv.SetFault(ccserver.Fault{Throttle: 3}); err != nil {
		t.Fatal(err)
	}
	mustApply(t, h, plans.NormalMode)
	if _, status := stateAttrs(t, h.State, "awscc_logs_log_group.a"); status != states.ObjectReady {
		t.Fatalf("after the throttled replacement: status %c", status)
	}
	mustApply(t, h, plans.DestroyMode)

	// A create slower than its timeout is cancelled and reported.
	if err := e.srv.SetFault(ccserver.Fault{TypeName: "AWS::Logs::LogGroup", Operation: "CREATE", Delay: time.Minute}); err != nil {
		t.Fatal(err)
	}
	reconfigure(t, h, e.providerBlock("")+fmt.Sprintf(group, `timeouts { create = "300ms" }`))
	ds := h.Apply(mustPlan(t, h, plans.NormalMode))
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "create timed out after 300ms") {
		t.Fatalf("apply: %v, want a timeout", ds)
	}
}

// TestEndToEndImport imports a log group made outside Cairn by its
// identifier.
func TestEndToEndImport(t *testing.T) {
	e := startEndpoint(t)
	ctx := context.Background()
	out, err := e.client.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"),
		DesiredState: aws.String(`{"LogGroupName":"outside","RetentionInDays":3}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&runtime{api: e.client, poll: fastPolls, stop: ctx}).await(ctx, out.ProgressEvent); err != nil {
		t.Fatal(err)
	}
	h, _ := e.harness(t, e.providerBlock("")+`
resource "awscc_logs_log_group" "a" {
  log_group_name    = "outside"
  retention_in_days = 3
}
`)
	lib := providers.NewLibrary(h.Providers)
	defer lib.Close()
	addr, diags := addrs.ParseAbsResourceInstanceStr("awscc_logs_log_group.a")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	st, ds := planning.Import(ctx, planning.Options{Config: h.Config, PrevState: h.State, Providers: lib, Funcs: funcs.Table("."), Now: time.Unix(0, 0)},
		addr, "outside", planning.ImportHooks{})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.State = st
	got, _ := stateAttrs(t, h.State, "awscc_logs_log_group.a")
	if got["id"] != "outside" || got["retention_in_days"] != 3.0 {
		t.Fatalf("imported: %v", got)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("plan after import has changes: %v", actions(p))
	}
}

// TestEndToEndUnorderedRules: a security group's ingress rules
// (insertionOrder false) kept by the service in another order than
// Cairn's: refresh sees no drift, reordering the configuration plans
// nothing, and removing one rule removes that rule on the service, not
// the one at its index in Cairn's order.
func TestEndToEndUnorderedRules(t *testing.T) {
	e := startEndpoint(t)
	// The rules leave different optional, computed members unset.
	rule := func(port int) string {
		if port == 443 {
			return `{ ip_protocol = "tcp", from_port = 443, to_port = 443, source_prefix_list_id = "pl-1", description = "https" }`
		}
		return fmt.Sprintf(`{ ip_protocol = "tcp", from_port = %d, to_port = %d, cidr_ip = "10.0.0.0/8" }`, port, port)
	}
	cfg := func(ports ...int) string {
		var rules []string
		for _, p := range ports {
			rules = append(rules, rule(p))
		}
		return e.providerBlock("") + `
resource "awscc_ec2_security_group" "g" {
  group_description      = "web"
  security_group_ingress = [` + strings.Join(rules, ", ") + `]
}
`
	}
	h, _ := e.harness(t, cfg(22, 80, 443))
	mustApply(t, h, plans.NormalMode)
	g, _ := stateAttrs(t, h.State, "awscc_ec2_security_group.g")
	id := g["id"].(string)

	// The service now holds the rules in reverse order.
	ctx := context.Background()
	reversed := `[{"op":"replace","path":"/SecurityGroupIngress","value":[` +
		`{"IpProtocol":"tcp","FromPort":443,"ToPort":443,"SourcePrefixListId":"pl-1","Description":"https"},` +
		`{"IpProtocol":"tcp","FromPort":80,"ToPort":80,"CidrIp":"10.0.0.0/8"},` +
		`{"IpProtocol":"tcp","FromPort":22,"ToPort":22,"CidrIp":"10.0.0.0/8"}]}]`
	out, err := e.client.UpdateResource(ctx, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::EC2::SecurityGroup"),
		Identifier: aws.String(id), PatchDocument: aws.String(reversed)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&runtime{api: e.client, poll: fastPolls, stop: ctx}).await(ctx, out.ProgressEvent); err != nil {
		t.Fatal(err)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("the service's order is drift: %v", actions(p))
	}
	reconfigure(t, h, cfg(80, 443, 22))
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("reordering the configuration plans %v, want nothing", actions(p))
	}
	// Cairn's last rule is the service's first.
	reconfigure(t, h, cfg(22, 80))
	mustApply(t, h, plans.NormalMode)
	got, err := e.client.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::EC2::SecurityGroup"), Identifier: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	props := aws.ToString(got.ResourceDescription.Properties)
	if strings.Contains(props, `"FromPort":443`) || !strings.Contains(props, `"FromPort":80`) || !strings.Contains(props, `"FromPort":22`) {
		t.Fatalf("after removing port 443 the service holds %s", props)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("plan after the removal has changes: %v", actions(p))
	}
}

// TestEndToEndWriteOnlyObject: the service never returns a function's
// Code members (every one write-only), and the plan after apply is empty
// rather than setting Code again. The endpoint answers "Code": {} where
// AWS leaves Code out; TestStateFromJSON covers that case.
func TestEndToEndWriteOnlyObject(t *testing.T) {
	e := startEndpoint(t)
	h, _ := e.harness(t, e.providerBlock("")+`
resource "awscc_lambda_function" "f" {
  role    = "arn:aws:iam::123456789012:role/fn"
  runtime = "python3.12"
  handler = "index.handler"
  code    = { zip_file = "def handler(event, context): return 1" }
}
`)
	mustApply(t, h, plans.NormalMode)
	f, _ := stateAttrs(t, h.State, "awscc_lambda_function.f")
	got, err := e.client.GetResource(context.Background(), &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::Lambda::Function"), Identifier: aws.String(f["id"].(string))})
	if err != nil {
		t.Fatal(err)
	}
	if props := aws.ToString(got.ResourceDescription.Properties); strings.Contains(props, "ZipFile") {
		t.Fatalf("the endpoint returned write-only Code: %s", props)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("plan after apply has changes: %v", actions(p))
	}
}
