package reconciler

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/zclconf/go-cty/cty"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/cairn-iac/cairn/internal/testkube"
)

// TestObserveListedLogGroups: log groups made behind the controller's
// back are listed and become observe-only managed resources on a real
// kube-apiserver; the controller fills each one's status.atProvider from
// the endpoint, follows a change made behind its back without undoing
// it, and never creates, updates or deletes a log group, not even when a
// managed resource is deleted.
func TestObserveListedLogGroups(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cluster := testkube.Start(t)
	ep := startEndpoint(t, nil)
	p, kind := logGroupKind(t)
	lc := newLiveController(t, cluster, p, kind, Options{PollInterval: time.Second})
	mustCreate(t, lc.kube, providerConfig(), namespace("found"))
	lc.start(ctx)
	cc := cloudcontrol.New(cloudcontrol.Options{Region: "us-east-1", BaseEndpoint: aws.String(ep.URL), Credentials: aws.AnonymousCredentials{}})
	groups := map[string]int64{"/aws/lambda/Fn": 3, "app": 7}
	for i := range 6 {
		groups[fmt.Sprintf("svc-%02d", i)] = 30
	}
	for name, days := range groups {
		ccDo(t, cc, func() (*cctypes.ProgressEvent, error) {
			out, err := cc.CreateResource(ctx, &cloudcontrol.CreateResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"),
				DesiredState: aws.String(fmt.Sprintf(`{"LogGroupName":%q,"RetentionInDays":%d}`, name, days))})
			if err != nil {
				return nil, err
			}
			return out.ProgressEvent, nil
		})
	}
	ep.ResetCalls()

	inst := configuredAWSCC(t, p)
	names, err := ObserveListed(ctx, lc.kube, kind, inst, ObserveOptions{Namespace: "found"})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	want := []string{"app", "aws-lambda-fn", "svc-00", "svc-01", "svc-02", "svc-03", "svc-04", "svc-05"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("created %v, want %v", names, want)
	}
	l := &liveLogGroups{lc: lc, kind: kind, cc: cc, ns: "found"}
	for _, name := range names {
		l.await(t, name, "observed", func(m *Managed) bool {
			return ready(m) && m.atProvider()["retentionInDays"] != nil
		})
		m := l.get(t, name)
		ext := m.GetAnnotations()["crossplane.io/external-name"]
		if days := m.atProvider()["retentionInDays"]; days != groups[ext] {
			t.Errorf("%s (external name %q): atProvider.retentionInDays = %v, want %d", name, ext, days, groups[ext])
		}
		if got := m.GetManagementPolicies(); len(got) != 1 || got[0] != "Observe" {
			t.Errorf("%s: managementPolicies %v", name, got)
		}
	}
	// Listing again creates nothing new.
	if again, err := ObserveListed(ctx, lc.kube, kind, inst, ObserveOptions{Namespace: "found"}); err != nil || len(again) != 0 {
		t.Errorf("second listing created %v (%v), want none", again, err)
	}

	// A change behind the back is observed, not undone.
	l.behindTheBack(t, "app", `[{"op":"replace","path":"/RetentionInDays","value":60}]`)
	l.await(t, "app", "observed at 60 days", func(m *Managed) bool { return m != nil && m.atProvider()["retentionInDays"] == int64(60) })
	// Deleting an observe-only resource leaves the log group.
	m := l.get(t, "svc-00")
	if err := lc.kube.Delete(ctx, &m.Unstructured); err != nil {
		t.Fatal(err)
	}
	l.await(t, "svc-00", "deleted", func(m *Managed) bool { return m == nil })
	time.Sleep(2 * time.Second) // two more polls
	if l.retention(t, "svc-00") != 30 || l.retention(t, "app") != 60 {
		t.Errorf("log groups changed: svc-00 %d days, app %d days", l.retention(t, "svc-00"), l.retention(t, "app"))
	}
	calls, _ := ep.Calls()
	for _, op := range []string{"CreateResource", "UpdateResource", "DeleteResource"} {
		// The one UpdateResource is the change made behind the back.
		if n := calls[op]; (op == "UpdateResource" && n != 1) || (op != "UpdateResource" && n != 0) {
			t.Errorf("%d %s calls reached the endpoint: %v", n, op, calls)
		}
	}
	t.Logf("endpoint calls while observing %d listed log groups: %v", len(names), calls)
}

// get reads managed resource name.
func (l *liveLogGroups) get(t *testing.T, name string) *Managed {
	t.Helper()
	m := NewManaged(l.kind.GVK.GroupVersion().String(), l.kind.GVK.Kind)
	if err := l.lc.kube.Get(context.Background(), client.ObjectKey{Namespace: l.ns, Name: name}, m); err != nil {
		t.Fatal(err)
	}
	return m
}

// configuredAWSCC is awscc itself (not a Library instance, which does not
// pass list resources through), configured from the environment.
func configuredAWSCC(t *testing.T, p *awscc.Provider) providers.Interface {
	t.Helper()
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inst.Close() })
	ctx := context.Background()
	cfg := inst.GetProviderSchema(ctx).Provider.Block.EmptyValue()
	cfg = setIfNull(cfg, "region", cty.StringVal("us-east-1"))
	if ds := inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cfg}).Diagnostics; ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	return inst
}

// ccDo runs a Cloud Control request and waits until it has succeeded.
func ccDo(t *testing.T, cc *cloudcontrol.Client, start func() (*cctypes.ProgressEvent, error)) {
	t.Helper()
	ev, err := start()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ev.OperationStatus == cctypes.OperationStatusInProgress || ev.OperationStatus == cctypes.OperationStatusPending; {
		if time.Now().After(deadline) {
			t.Fatalf("request still %s", ev.OperationStatus)
		}
		time.Sleep(20 * time.Millisecond)
		st, err := cc.GetResourceRequestStatus(context.Background(), &cloudcontrol.GetResourceRequestStatusInput{RequestToken: ev.RequestToken})
		if err != nil {
			t.Fatal(err)
		}
		ev = st.ProgressEvent
	}
	if ev.OperationStatus != cctypes.OperationStatusSuccess {
		t.Fatalf("request %s: %s", ev.OperationStatus, aws.ToString(ev.StatusMessage))
	}
}
