package reconciler

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	xpv1 "github.com/crossplane/crossplane-runtime/v2/apis/common/v1"
	"github.com/crossplane/crossplane-runtime/v2/pkg/fieldpath"
	"github.com/crossplane/crossplane-runtime/v2/pkg/resource"
)

// Managed is one managed resource of any Cairn resource type: the
// object as the API server holds it (unstructured, because the kinds are
// generated from provider schemas at run time, not compiled in), with the
// accessors crossplane-runtime's managed reconciler needs. It follows
// Crossplane v2's namespaced model: a typed providerConfigRef and a
// connection secret in the object's own namespace.
//
// The fields live where every Crossplane managed resource has them:
// spec.managementPolicies, spec.providerConfigRef,
// spec.writeConnectionSecretToRef, status.conditions.
type Managed struct {
	unstructured.Unstructured
}

var (
	_ resource.ModernManaged = (*Managed)(nil)
	_ runtime.Unstructured   = (*Managed)(nil)
)

// NewManaged returns an empty managed resource of the given kind.
func NewManaged(apiVersion, kind string) *Managed {
	m := &Managed{unstructured.Unstructured{Object: map[string]any{}}}
	m.SetAPIVersion(apiVersion)
	m.SetKind(kind)
	return m
}

// GetUnstructured lets crossplane-runtime's wrapper client send the
// object to the API server as the unstructured object it is.
func (m *Managed) GetUnstructured() *unstructured.Unstructured { return &m.Unstructured }

// DeepCopyObject implements runtime.Object, keeping the type.
func (m *Managed) DeepCopyObject() runtime.Object {
	return &Managed{*m.Unstructured.DeepCopy()}
}

func (m *Managed) paved() *fieldpath.Paved { return fieldpath.Pave(m.Object) }

// GetCondition returns the condition of type ct, or an Unknown one.
func (m *Managed) GetCondition(ct xpv1.ConditionType) xpv1.Condition {
	var st xpv1.ConditionedStatus
	if err := m.paved().GetValueInto("status", &st); err != nil {
		return xpv1.Condition{Type: ct, Status: "Unknown"}
	}
	return st.GetCondition(ct)
}

// SetConditions sets the given conditions, replacing those of the same
// type and leaving the others.
func (m *Managed) SetConditions(cs ...xpv1.Condition) {
	var st xpv1.ConditionedStatus
	_ = m.paved().GetValueInto("status", &st)
	st.SetConditions(cs...)
	_ = m.paved().SetValue("status.conditions", st.Conditions)
}

// GetManagementPolicies returns spec.managementPolicies; absent means
// everything ("*"), as the CRD's default says.
func (m *Managed) GetManagementPolicies() xpv1.ManagementPolicies {
	var p xpv1.ManagementPolicies
	if err := m.paved().GetValueInto("spec.managementPolicies", &p); err != nil || len(p) == 0 {
		return xpv1.ManagementPolicies{xpv1.ManagementActionAll}
	}
	return p
}

// SetManagementPolicies sets spec.managementPolicies.
func (m *Managed) SetManagementPolicies(p xpv1.ManagementPolicies) {
	_ = m.paved().SetValue("spec.managementPolicies", p)
}

// GetProviderConfigReference returns spec.providerConfigRef, or nil.
func (m *Managed) GetProviderConfigReference() *xpv1.ProviderConfigReference {
	var r xpv1.ProviderConfigReference
	if err := m.paved().GetValueInto("spec.providerConfigRef", &r); err != nil {
		return nil
	}
	return &r
}

// SetProviderConfigReference sets spec.providerConfigRef.
func (m *Managed) SetProviderConfigReference(r *xpv1.ProviderConfigReference) {
	_ = m.paved().SetValue("spec.providerConfigRef", r)
}

// GetWriteConnectionSecretToReference returns
// spec.writeConnectionSecretToRef, or nil.
func (m *Managed) GetWriteConnectionSecretToReference() *xpv1.LocalSecretReference {
	var r xpv1.LocalSecretReference
	if err := m.paved().GetValueInto("spec.writeConnectionSecretToRef", &r); err != nil {
		return nil
	}
	return &r
}

// SetWriteConnectionSecretToReference sets spec.writeConnectionSecretToRef.
func (m *Managed) SetWriteConnectionSecretToReference(r *xpv1.LocalSecretReference) {
	_ = m.paved().SetValue("spec.writeConnectionSecretToRef", r)
}
