package reconciler

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/go-logr/logr"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"

	"github.com/cairn-iac/cairn/internal/testkube"
)

// liveLogGroups is a controller of LogGroups polling every second on a
// real kube-apiserver against Cairn's Cloud Control endpoint, and a
// Cloud Control client that changes the log groups behind its back.
type liveLogGroups struct {
	lc   *liveController
	kind *Kind
	cc   *cloudcontrol.Client
	ns   string
}

func newLiveLogGroups(t *testing.T, ctx context.Context, async bool) *liveLogGroups {
	t.Helper()
	cluster := testkube.Start(t)
	ep := startEndpoint(t, nil)
	p, kind := logGroupKind(t)
	kind.Async = async
	lc := newLiveController(t, cluster, p, kind, Options{PollInterval: time.Second})
	mustCreate(t, lc.kube, providerConfig(), namespace("team"))
	lc.start(ctx)
	cfg := aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("test", "test", "")}
	cc := cloudcontrol.NewFromConfig(cfg, func(o *cloudcontrol.Options) { o.BaseEndpoint = aws.String(ep.URL) })
	return &liveLogGroups{lc: lc, kind: kind, cc: cc, ns: "team"}
}

// create creates LogGroup name with a retention of 7 days.
func (l *liveLogGroups) create(t *testing.T, name string) {
	t.Helper()
	lg := NewManaged(l.kind.GVK.GroupVersion().String(), l.kind.GVK.Kind)
	lg.SetNamespace(l.ns)
	lg.SetName(name)
	lg.Object["spec"] = map[string]any{"forProvider": map[string]any{"retentionInDays": int64(7)}}
	mustCreate(t, l.lc.kube, &lg.Unstructured)
}

// patch merge-patches LogGroup name.
func (l *liveLogGroups) patch(t *testing.T, name, patch string) {
	t.Helper()
	m := NewManaged(l.kind.GVK.GroupVersion().String(), l.kind.GVK.Kind)
	m.SetNamespace(l.ns)
	m.SetName(name)
	if err := l.lc.kube.Patch(context.Background(), &m.Unstructured, client.RawPatch("application/merge-patch+json", []byte(patch))); err != nil {
		t.Fatal(err)
	}
}

// await reads LogGroup name until ok holds (nil when it is gone),
// failing the test after a minute.
func (l *liveLogGroups) await(t *testing.T, name, what string, ok func(*Managed) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		m := NewManaged(l.kind.GVK.GroupVersion().String(), l.kind.GVK.Kind)
		err := l.lc.kube.Get(context.Background(), client.ObjectKey{Namespace: l.ns, Name: name}, m)
		switch {
		case apierrors.IsNotFound(err):
			m = nil
		case err != nil:
			t.Fatal(err)
		}
		if ok(m) {
			return
		}
		if time.Now().After(deadline) {
			var status any
			if m != nil {
				status = m.Object["status"]
			}
			t.Fatalf("LogGroup %s not %s after a minute; status: %v", name, what, status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func ready(m *Managed) bool {
	return m != nil && m.GetCondition(xpv1.TypeReady).Status == "True" && m.GetCondition(xpv1.TypeSynced).Status == "True"
}

// retention is the log group's RetentionInDays at the endpoint; -1 when
// it does not exist.
func (l *liveLogGroups) retention(t *testing.T, name string) int {
	t.Helper()
	out, err := l.cc.GetResource(context.Background(), &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::Logs::LogGroup"), Identifier: aws.String(name)})
	if err != nil {
		if strings.Contains(err.Error(), "NotFound") {
			return -1
		}
		t.Fatal(err)
	}
	var props struct{ RetentionInDays int }
	if err := json.Unmarshal([]byte(aws.ToString(out.ResourceDescription.Properties)), &props); err != nil {
		t.Fatal(err)
	}
	return props.RetentionInDays
}

// awaitRetention waits until the endpoint's log group has retention days
// (-1: gone).
func (l *liveLogGroups) awaitRetention(t *testing.T, name string, days int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for l.retention(t, name) != days {
		if time.Now().After(deadline) {
			t.Fatalf("log group %s: retention %d after a minute, want %d", name, l.retention(t, name), days)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// behindTheBack runs a Cloud Control change to log group name and waits
// until it has succeeded.
func (l *liveLogGroups) behindTheBack(t *testing.T, name string, patch string) {
	t.Helper()
	ctx := context.Background()
	typ, id := aws.String("AWS::Logs::LogGroup"), aws.String(name)
	var token *string
	if patch == "" {
		out, err := l.cc.DeleteResource(ctx, &cloudcontrol.DeleteResourceInput{TypeName: typ, Identifier: id})
		if err != nil {
			t.Fatal(err)
		}
		token = out.ProgressEvent.RequestToken
	} else {
		out, err := l.cc.UpdateResource(ctx, &cloudcontrol.UpdateResourceInput{TypeName: typ, Identifier: id, PatchDocument: aws.String(patch)})
		if err != nil {
			t.Fatal(err)
		}
		token = out.ProgressEvent.RequestToken
	}
	w := cloudcontrol.NewResourceRequestSuccessWaiter(l.cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
		o.MinDelay, o.MaxDelay = 10*time.Millisecond, 100*time.Millisecond
	})
	if err := w.Wait(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: token}, time.Minute); err != nil {
		t.Fatal(err)
	}
}

// TestLiveObserveUnchanged runs the controller (poll 1 s) on a real
// kube-apiserver against Cairn's endpoint, synchronous and asynchronous.
// Once every LogGroup is Ready, the polls that follow plan nothing: every
// observation finds what the last full one left. Each change then goes
// through a full reconcile all the same: a spec edit is applied, a change
// made behind the controller's back is put back, a log group deleted
// behind its back is created again, a refused change reports its error
// and clears when undone, and a deleted managed resource deletes its log
// group.
func TestLiveObserveUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the controller on a real kube-apiserver")
	}
	ctrl.SetLogger(logr.Discard())
	for _, async := range []bool{false, true} {
		t.Run(fmt.Sprintf("async=%v", async), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			l := newLiveLogGroups(t, ctx, async)
			names := []string{"steady", "edited", "drifted", "gone", "refused", "deleted"}
			for _, n := range names {
				l.create(t, n)
			}
			for _, n := range names {
				l.await(t, n, "Ready and Synced", ready)
			}
			liveSteadyPolls(t, l.lc.cs.Stats, len(names))

			l.patch(t, "edited", `{"spec":{"forProvider":{"retentionInDays":14}}}`)
			l.awaitRetention(t, "edited", 14)
			l.await(t, "edited", "showing the new retention", func(m *Managed) bool {
				return ready(m) && m.atProvider()["retentionInDays"] == int64(14)
			})

			l.behindTheBack(t, "drifted", `[{"op":"replace","path":"/RetentionInDays","value":30}]`)
			l.awaitRetention(t, "drifted", 7)

			l.behindTheBack(t, "gone", "")
			l.awaitRetention(t, "gone", 7)
			l.await(t, "gone", "Ready again", ready)

			l.patch(t, "refused", `{"spec":{"forProvider":{"logGroupName":"renamed"}}}`)
			l.await(t, "refused", "refusing the rename", func(m *Managed) bool {
				c := m.GetCondition(xpv1.TypeSynced)
				return c.Status == "False" && strings.Contains(c.Message, "without replacing")
			})
			l.patch(t, "refused", `{"spec":{"forProvider":{"logGroupName":null}}}`)
			l.await(t, "refused", "Synced again", ready)

			if err := l.lc.kube.Delete(context.Background(), namedManaged(l.kind, l.ns, "deleted")); err != nil {
				t.Fatal(err)
			}
			l.await(t, "deleted", "gone", func(m *Managed) bool { return m == nil })
			l.awaitRetention(t, "deleted", -1)
			if got := l.retention(t, "steady"); got != 7 {
				t.Errorf("the LogGroup nothing changed has retention %d, want 7", got)
			}
		})
	}
}

// liveSteadyPolls waits until each of n settled resources has been
// polled without a plan, then checks that in the next three polls
// (3 s) no observation planned.
func liveSteadyPolls(t *testing.T, st *Stats, n int) {
	t.Helper()
	start := st.Unchanged.Load()
	deadline := time.Now().Add(time.Minute)
	for st.Unchanged.Load() < start+uint64(n) {
		if time.Now().After(deadline) {
			t.Fatalf("%d observations without a plan in a minute of 1 s polls of %d Ready resources", st.Unchanged.Load()-start, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Planned, not observations minus unchanged: an observation in
	// flight at either end of the window has counted itself observed but
	// not yet unchanged.
	unchanged, planned := st.Unchanged.Load(), st.Planned.Load()
	time.Sleep(3 * time.Second)
	dUnchanged, dPlanned := st.Unchanged.Load()-unchanged, st.Planned.Load()-planned
	t.Logf("steady: in 3 s of 1 s polls, %d observations without a plan, %d with one", dUnchanged, dPlanned)
	if dUnchanged < uint64(n) || dPlanned != 0 {
		t.Errorf("steady: in 3 s, %d observations without a plan and %d with one; want at least %d without, none with", dUnchanged, dPlanned, n)
	}
}

func namedManaged(k *Kind, ns, name string) *Managed {
	m := NewManaged(k.GVK.GroupVersion().String(), k.GVK.Kind)
	m.SetNamespace(ns)
	m.SetName(name)
	return m
}
