package reconciler

import (
	"context"
	"fmt"
	"time"

	"github.com/zclconf/go-cty/cty"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/meta"

	"github.com/cairn-iac/cairn/internal/lifecycle"
)

// asyncCondition is the Ready condition while an operation runs.
func asyncCondition(kind string) xpv1.Condition {
	if kind == "delete" {
		return xpv1.Deleting()
	}
	if kind == "create" {
		return xpv1.Creating()
	}
	c := xpv1.Available()
	c.Message = "an update is in progress"
	return c
}

// startAsync runs one operation in the background. When it ends, what it
// learned that only the object can keep after a restart — the external
// name and private state of a created resource — is written to the
// object at once (retrying conflicts), which also wakes the reconciler;
// the rest is in the workspace for the next observation.
func (e *external) startAsync(m *Managed, kind string, prior cty.Value, private []byte, config cty.Value) error {
	key := client.ObjectKeyFromObject(m)
	gvk := m.GroupVersionKind()
	started := e.ws.start(kind, func(ctx context.Context) error {
		if kind == "delete" {
			if ds := lifecycle.Delete(ctx, e.t, prior, private); ds.HasErrors() {
				return ds.Err()
			}
			e.ws.setState(nil)
			return e.touch(ctx, key, gvk, kind, func(*Managed) {})
		}
		obj, err := e.apply(ctx, prior, private, config)
		if obj != nil {
			if perr := e.touch(ctx, key, gvk, kind, func(cur *Managed) {
				if kind == "create" {
					_ = e.recordIdentity(cur, obj)
				} else {
					setPrivate(cur, obj.Private)
				}
			}); perr != nil && err == nil {
				err = perr
			}
		}
		return err
	})
	if !started {
		return fmt.Errorf("another operation is still running")
	}
	return nil
}

// AnnotationLastOperation records the last asynchronous operation that
// ended ("create 2026-11-24T06:00:00Z"): writing it is what wakes the
// reconciler to take the result.
const AnnotationLastOperation = "cairn-iac.io/last-operation"

// touch updates the live object with edit, retrying on conflicts. It
// reads the object from the API server, not the cache: a cache that lags
// behind the reconciler's own writes would make every attempt conflict,
// and the result of a create, its identity, must not be lost.
func (e *external) touch(ctx context.Context, key client.ObjectKey, gvk schema.GroupVersionKind, kind string, edit func(*Managed)) error {
	reader := client.Reader(e.kube)
	if e.live != nil {
		reader = e.live
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur := NewManaged(gvk.GroupVersion().String(), gvk.Kind)
		if err := reader.Get(ctx, key, &cur.Unstructured); err != nil {
			return err
		}
		edit(cur)
		meta.AddAnnotations(cur, map[string]string{AnnotationLastOperation: kind + " " + time.Now().UTC().Format(time.RFC3339Nano)})
		return e.kube.Update(ctx, cur)
	})
}
