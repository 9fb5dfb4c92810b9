package awscc

import (
	"context"
	"errors"
	"strings"
	"testing"

	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// errOutage stands for an API out of reach for longer than the SDK retries.
var errOutage = errors.New("dial tcp 127.0.0.1:4566: connect: connection refused")

// applyThroughOutage applies widgetConfig while Cloud Control accepts the
// create and then becomes unreachable, and checks the apply fails saying
// the outcome is unknown and keeps the object pending (not tainted).
func applyThroughOutage(t *testing.T, fake *fakeCloudControl) *enginetest.Harness {
	t.Helper()
	h := harness(t, fake, widgetConfig)
	p := mustPlan(t, h, plans.NormalMode)
	fake.mu.Lock()
	fake.pollErr = errOutage
	fake.mu.Unlock()
	ds := h.Apply(p)
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "outcome is not known") {
		t.Fatalf("apply during an outage: %v, want an error saying the outcome is unknown", ds)
	}
	_, status := stateAttrs(t, h.State, "awscc_test_widget.w")
	cur := h.State.ResourceInstance(mustInstance(t, "awscc_test_widget.w")).Current
	if status != states.ObjectReady || !strings.Contains(string(cur.Private), pendingKey) {
		t.Fatalf("state after the outage: status %c private %q, want a pending object", status, cur.Private)
	}
	fake.mu.Lock()
	fake.pollErr = nil
	fake.mu.Unlock()
	return h
}

// TestPendingCreateResumed: the next run follows a pending create to its
// end instead of creating again, whatever became of it.
func TestPendingCreateResumed(t *testing.T) {
	t.Run("succeeded", func(t *testing.T) {
		fake := newFake()
		h := applyThroughOutage(t, fake)
		p := mustPlan(t, h, plans.NormalMode)
		if p.HasChanges() {
			t.Fatalf("plan after the outage: %v, want no changes", actions(p))
		}
		if n := fake.count("CreateResource"); n != 1 {
			t.Errorf("%d creates, want 1", n)
		}
		got, _ := stateAttrs(t, p.PriorState, "awscc_test_widget.w")
		if got["id"] != "r-1" {
			t.Errorf("refreshed object %v, want r-1 read back", got)
		}
		if priv := p.PriorState.ResourceInstance(mustInstance(t, "awscc_test_widget.w")).Current.Private; strings.Contains(string(priv), pendingKey) {
			t.Errorf("refreshed object still pending: %q", priv)
		}
	})
	t.Run("failed without a resource", func(t *testing.T) {
		fake := newFake()
		fake.anonymous = true
		h := applyThroughOutage(t, fake)
		fake.mu.Lock()
		for _, ev := range fake.requests {
			ev.OperationStatus, ev.Identifier, ev.ErrorCode = cctypes.OperationStatusFailed, nil, cctypes.HandlerErrorCodeInvalidRequest
		}
		fake.resources = map[string]map[string]map[string]any{}
		fake.mu.Unlock()
		p, ds := h.Plan(plans.NormalMode)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		if got := strings.Join(actions(p), ","); got != "awscc_test_widget.w create" {
			t.Errorf("plan %s, want the widget created again", got)
		}
		if !strings.Contains(ds.Error(), "Resource not created") {
			t.Errorf("diagnostics %v, want a warning saying the create made nothing", ds)
		}
	})
	t.Run("request forgotten before it named a resource", func(t *testing.T) {
		fake := newFake()
		fake.anonymous = true
		h := applyThroughOutage(t, fake)
		fake.mu.Lock()
		fake.requests = map[string]*cctypes.ProgressEvent{}
		fake.mu.Unlock()
		_, ds := h.Plan(plans.NormalMode)
		if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "no longer knows create request") {
			t.Fatalf("plan: %v, want an error: the outcome cannot be learned", ds)
		}
		if n := fake.count("CreateResource"); n != 1 {
			t.Errorf("%d creates, want 1", n)
		}
	})
	t.Run("destroyed without a refresh", func(t *testing.T) {
		fake := newFake()
		fake.anonymous = true
		h := applyThroughOutage(t, fake)
		p, ds := h.Plan(plans.DestroyMode, func(o *planning.Options) { o.SkipRefresh = true })
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		if ds := h.Apply(p); ds.HasErrors() {
			t.Fatal(ds)
		}
		if n := len(fake.resources["AWS::Test::Widget"]); n != 0 {
			t.Errorf("%d widgets left after destroy, want the one the pending create made deleted", n)
		}
	})
}

// TestPendingCreateWithoutRecorder: a provider run by Terraform, which
// records no accepted creates, answers an unknown outcome with the
// pending object and an error, so Terraform keeps it (tainted) and its
// next refresh follows the request.
func TestPendingCreateWithoutRecorder(t *testing.T) {
	fake := newFake()
	fake.pollErr = errOutage
	p, err := New(testSchemas)
	if err != nil {
		t.Fatal(err)
	}
	p.testAPI, p.testBackoff = fake, &fastPolls
	resp := createWidget(t, p, context.Background())
	if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Err().Error(), "recorded as tainted") {
		t.Fatalf("diagnostics %v, want the unknown outcome explained for Terraform", resp.Diagnostics)
	}
	if resp.NewState.IsNull() || !strings.Contains(string(resp.Private), pendingKey) {
		t.Fatalf("new state %#v private %q, want the pending object", resp.NewState, resp.Private)
	}
}

// TestPendingCreateReportedOnce: with a recorder, an accepted create is
// reported before the first poll, with the request and client tokens.
func TestPendingCreateReportedOnce(t *testing.T) {
	fake := newFake()
	p, err := New(testSchemas)
	if err != nil {
		t.Fatal(err)
	}
	p.testAPI, p.testBackoff = fake, &fastPolls
	var reports []string
	ctx := providers.WithCreateRecorder(context.Background(), func(private []byte) error {
		fake.mu.Lock()
		polls := len(fake.calls)
		fake.mu.Unlock()
		if polls != 1 {
			t.Errorf("reported after %d calls, want right after CreateResource", polls)
		}
		reports = append(reports, string(private))
		return nil
	})
	resp := createWidget(t, p, ctx)
	if resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics)
	}
	if len(reports) != 1 || !strings.Contains(reports[0], pendingKey) {
		t.Fatalf("reports %q, want one pending record", reports)
	}
	if strings.Contains(string(resp.Private), pendingKey) {
		t.Errorf("a finished create keeps its pending record: %q", resp.Private)
	}
}

func mustInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return a
}

// createWidget configures an instance of p and creates a widget through
// it with ctx, as the engine would.
func createWidget(t *testing.T, p *Provider, ctx context.Context) providers.ApplyResourceChangeResponse {
	t.Helper()
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	s := inst.GetProviderSchema(ctx)
	if ds := inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: object(s.Provider.Block.ImpliedType(),
		map[string]cty.Value{"region": cty.StringVal("eu-west-1")})}).Diagnostics; ds.HasErrors() {
		t.Fatal(ds)
	}
	ty := s.ResourceTypes["awscc_test_widget"].Block.ImpliedType()
	config := object(ty, map[string]cty.Value{"widget_name": cty.StringVal("w")})
	plan := inst.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "awscc_test_widget", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics)
	}
	return inst.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "awscc_test_widget",
		PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config})
}

// TestPendingCreateFailedAfterNaming: a create followed to its end in a
// later run that failed after the handler named the resource keeps the
// resource (never orphaned) and the next plan replaces it, as a create
// that fails in the run that made it leaves a tainted object.
func TestPendingCreateFailedAfterNaming(t *testing.T) {
	fake := newFake()
	h := applyThroughOutage(t, fake)
	fake.mu.Lock()
	for _, ev := range fake.requests {
		ev.OperationStatus, ev.ErrorCode = cctypes.OperationStatusFailed, cctypes.HandlerErrorCodeNotStabilized
	}
	fake.mu.Unlock()
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if !strings.Contains(ds.Error(), "Create failed after naming the resource") {
		t.Errorf("diagnostics %v, want the failure explained", ds)
	}
	if got := strings.Join(actions(p), ","); !strings.Contains(got, "awscc_test_widget.w") || !strings.Contains(got, "create") || !strings.Contains(got, "delete") {
		t.Fatalf("plan %q, want the widget replaced", got)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	if n := len(fake.resources["AWS::Test::Widget"]); n != 1 {
		t.Errorf("%d widgets after the replacement, want 1", n)
	}
}

// TestPendingCreateWithoutRefresh: a plan that does not refresh cannot
// change an object whose create is still pending; it says how to go on.
func TestPendingCreateWithoutRefresh(t *testing.T) {
	fake := newFake()
	h := applyThroughOutage(t, fake)
	reconfigure(t, h, strings.Replace(widgetConfig, "size        = 2", "size        = 4", 1))
	_, ds := h.Plan(plans.NormalMode, func(o *planning.Options) { o.SkipRefresh = true })
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "Plan again with refresh") {
		t.Fatalf("plan without refresh: %v, want the pending create named", ds)
	}
	if n := fake.count("UpdateResource"); n != 0 {
		t.Errorf("%d updates sent for a pending object", n)
	}
}
