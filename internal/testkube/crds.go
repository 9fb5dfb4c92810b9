package testkube

import (
	"context"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// establishPoll is the pause between checks that a CRD is Established.
const establishPoll = 100 * time.Millisecond

// ApplyCRDs creates each CRD, or updates it to the given spec when one of
// that name exists, then waits until every one is Established, so that
// the caller can create objects of its kinds at once. The CRDs are not
// changed. It gives up when ctx ends, or when the apiserver refuses a
// CRD's names (NamesAccepted false), with the apiserver's reason.
func (c *Cluster) ApplyCRDs(ctx context.Context, crds []*apiextensionsv1.CustomResourceDefinition) error {
	cs, err := clientset.NewForConfig(c.config)
	if err != nil {
		return fmt.Errorf("making apiextensions client: %w", err)
	}
	api := cs.ApiextensionsV1().CustomResourceDefinitions()
	for _, crd := range crds {
		if err := applyCRD(ctx, api, crd); err != nil {
			return err
		}
	}
	for _, crd := range crds {
		if err := waitEstablished(ctx, api, crd.Name); err != nil {
			return err
		}
	}
	return nil
}

// crdClient is the part of the typed CRD client ApplyCRDs uses.
type crdClient interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*apiextensionsv1.CustomResourceDefinition, error)
	Create(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.CreateOptions) (*apiextensionsv1.CustomResourceDefinition, error)
	Update(ctx context.Context, crd *apiextensionsv1.CustomResourceDefinition, opts metav1.UpdateOptions) (*apiextensionsv1.CustomResourceDefinition, error)
}

// applyCRD creates crd, or replaces the spec, labels and annotations of
// the one already there, retrying when another writer got in between.
func applyCRD(ctx context.Context, api crdClient, crd *apiextensionsv1.CustomResourceDefinition) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		existing, err := api.Get(ctx, crd.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			_, err = api.Create(ctx, crd.DeepCopy(), metav1.CreateOptions{})
			return err
		}
		if err != nil {
			return err
		}
		updated := existing.DeepCopy()
		updated.Labels = crd.Labels
		updated.Annotations = crd.Annotations
		updated.Spec = *crd.Spec.DeepCopy()
		_, err = api.Update(ctx, updated, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("applying CRD %s: %w", crd.Name, err)
	}
	return nil
}

// waitEstablished polls the CRD until its Established condition is true.
func waitEstablished(ctx context.Context, api crdClient, name string) error {
	err := wait.PollUntilContextCancel(ctx, establishPoll, true, func(ctx context.Context) (bool, error) {
		crd, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, cond := range crd.Status.Conditions {
			switch {
			case cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue:
				return true, nil
			case cond.Type == apiextensionsv1.NamesAccepted && cond.Status == apiextensionsv1.ConditionFalse:
				return false, fmt.Errorf("names not accepted: %s: %s", cond.Reason, cond.Message)
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for CRD %s to be established: %w", name, err)
	}
	return nil
}
