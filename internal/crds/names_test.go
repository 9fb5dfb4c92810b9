package crds

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apiserver/pkg/cel"
)

func TestKindFor(t *testing.T) {
	cases := map[string]struct {
		reason   string
		provider string
		typeName string
		want     Kind
		wantErr  bool
	}{
		"service and kind": {
			reason:   "the segment after the provider is the service, the rest the kind",
			provider: "awscc", typeName: "awscc_logs_log_group",
			want: Kind{Provider: "awscc", TypeName: "awscc_logs_log_group", Group: "logs.awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "LogGroup", ListKind: "LogGroupList", Plural: "loggroups", Singular: "loggroup"},
		},
		"digits": {
			reason:   "digits stay where they are, in the service and in the kind",
			provider: "awscc", typeName: "awscc_ec2_vpc_endpoint_v2",
			want: Kind{Provider: "awscc", TypeName: "awscc_ec2_vpc_endpoint_v2", Group: "ec2.awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "VpcEndpointV2", ListKind: "VpcEndpointV2List", Plural: "vpcendpointv2s", Singular: "vpcendpointv2"},
		},
		"acronym": {
			reason:   "acronyms are words like any other (snake_case has no capitals to keep)",
			provider: "awscc", typeName: "awscc_iam_oidc_provider",
			want: Kind{Provider: "awscc", TypeName: "awscc_iam_oidc_provider", Group: "iam.awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "OidcProvider", ListKind: "OidcProviderList", Plural: "oidcproviders", Singular: "oidcprovider"},
		},
		"irregular plural": {
			reason:   "plurals follow English (inflection), as Kubernetes users expect",
			provider: "awscc", typeName: "awscc_s3_access_policy",
			want: Kind{Provider: "awscc", TypeName: "awscc_s3_access_policy", Group: "s3.awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "AccessPolicy", ListKind: "AccessPolicyList", Plural: "accesspolicies", Singular: "accesspolicy"},
		},
		"only a service": {
			reason:   "a type with no rest lives in the provider's group, named by its one word",
			provider: "awscc", typeName: "awscc_foo",
			want: Kind{Provider: "awscc", TypeName: "awscc_foo", Group: "awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "Foo", ListKind: "FooList", Plural: "foos", Singular: "foo"},
		},
		"trailing underscore": {
			reason:   "an empty rest is no kind: the service names it",
			provider: "awscc", typeName: "awscc_foo_",
			want: Kind{Provider: "awscc", TypeName: "awscc_foo_", Group: "awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "Foo", ListKind: "FooList", Plural: "foos", Singular: "foo"},
		},
		"wrong provider": {reason: "the type must belong to the provider", provider: "awscc", typeName: "aws_s3_bucket", wantErr: true},
		"provider alone": {reason: "the provider's name is no type", provider: "awscc", typeName: "awscc", wantErr: true},
		"prefix alone":   {reason: "nothing after the prefix", provider: "awscc", typeName: "awscc_", wantErr: true},
		"digit kind":     {reason: "a kind must start with a letter", provider: "awscc", typeName: "awscc_ec2_2fa", wantErr: true},
		"empty provider": {reason: "no provider, no prefix", provider: "", typeName: "_x", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := KindFor(tc.provider, tc.typeName)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s: error %v, want error %v", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestKindForServed(t *testing.T) {
	cases := map[string]struct {
		reason   string
		typeName string
		want     Kind
		wantErr  bool
	}{
		"own prefix": {
			reason:   "the provider's own types are named as KindFor names them",
			typeName: "awscc_logs_log_group",
			want: Kind{Provider: "awscc", TypeName: "awscc_logs_log_group", Group: "logs.awscc.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "LogGroup", ListKind: "LogGroupList", Plural: "loggroups", Singular: "loggroup"},
		},
		"private type": {
			reason:   "another prefix takes the provider's place in the group; the provider still serves it",
			typeName: "example_widgets_gadget",
			want: Kind{Provider: "awscc", TypeName: "example_widgets_gadget", Group: "widgets.example.m.cairn-iac.io", Version: "v1alpha1",
				Kind: "Gadget", ListKind: "GadgetList", Plural: "gadgets", Singular: "gadget"},
		},
		"one word": {reason: "a name with no prefix is no type", typeName: "gadget", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := KindForServed("awscc", tc.typeName)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s: error %v, want error %v", tc.reason, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestKindNames(t *testing.T) {
	k, err := KindFor("awscc", "awscc_logs_log_group")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := k.CRDName(), "loggroups.logs.awscc.m.cairn-iac.io"; got != want {
		t.Errorf("CRDName() = %q, want %q", got, want)
	}
	if got, want := k.GroupVersionKind().String(), "logs.awscc.m.cairn-iac.io/v1alpha1, Kind=LogGroup"; got != want {
		t.Errorf("GroupVersionKind() = %q, want %q", got, want)
	}
	ns, cl := ProviderConfigKinds("awscc")
	if got, want := ns.CRDName(), "providerconfigs.awscc.m.cairn-iac.io"; got != want {
		t.Errorf("ProviderConfig CRDName() = %q, want %q", got, want)
	}
	if got, want := cl.CRDName(), "clusterproviderconfigs.awscc.m.cairn-iac.io"; got != want {
		t.Errorf("ClusterProviderConfig CRDName() = %q, want %q", got, want)
	}
}

// TestCELIdentifier checks the escape against Kubernetes' own.
func TestCELIdentifier(t *testing.T) {
	for _, f := range []string{"name", "namespace", "in", "a__b", "a_b", "logGroupName", "true", "while", "x1"} {
		want, ok := cel.Escape(f)
		if !ok {
			t.Fatalf("cel.Escape(%q) failed", f)
		}
		if got := celIdentifier(f); got != want {
			t.Errorf("celIdentifier(%q) = %q, want %q", f, got, want)
		}
	}
}
