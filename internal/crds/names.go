package crds

import (
	"fmt"
	"strings"

	"github.com/jinzhu/inflection"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Domain is the DNS suffix of every API group Cairn serves.
const Domain = "cairn-iac.io"

// Version is the one API version of every generated kind.
const Version = "v1alpha1"

// Kind names one generated kind: the resource type it serves and the
// names Kubernetes knows it by.
type Kind struct {
	Provider, TypeName string // "awscc", "awscc_logs_log_group"
	Group, Version     string
	Kind, ListKind     string
	Plural, Singular   string
}

// GroupVersionKind returns the kind's group, version and kind.
func (k Kind) GroupVersionKind() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
}

// CRDName returns the name of the kind's CustomResourceDefinition, which
// Kubernetes requires to be plural.group.
func (k Kind) CRDName() string { return k.Plural + "." + k.Group }

// providerGroup is the API group of a provider's own kinds (and of its
// resource types that have no service segment). The ".m." marks
// Crossplane v2's namespaced managed resources.
func providerGroup(provider string) string { return provider + ".m." + Domain }

// KindFor names the kind of resource type typeName of provider. The
// segment after "<provider>_" is the service, which becomes the group
// "<service>.<provider>.m.cairn-iac.io"; the rest, CamelCased, is the kind
// (awscc_logs_log_group: group logs.awscc.m.cairn-iac.io, kind LogGroup,
// plural loggroups). A type with nothing after the service (awscc_foo)
// gets the provider's group and the service as its kind. The error says
// typeName does not belong to provider or cannot make a valid kind.
func KindFor(provider, typeName string) (Kind, error) {
	rest, ok := strings.CutPrefix(typeName, provider+"_")
	if !ok || provider == "" || rest == "" {
		return Kind{}, fmt.Errorf("resource type %q does not start with %q", typeName, provider+"_")
	}
	group := providerGroup(provider)
	service, name, found := strings.Cut(rest, "_")
	if found && name != "" {
		group = service + "." + group
	} else {
		name = rest
	}
	kind := kindName(name)
	if kind == "" || !isLetter(kind[0]) {
		return Kind{}, fmt.Errorf("resource type %q: kind %q must start with a letter", typeName, kind)
	}
	k := Kind{
		Provider: provider, TypeName: typeName,
		Group: group, Version: Version,
		Kind: kind, ListKind: kind + "List",
		Plural:   plural(kind),
		Singular: strings.ToLower(kind),
	}
	return k, nil
}

// KindForServed is KindFor for any type provider serves, including
// types named outside its prefix (the awscc provider serves private
// CloudFormation types under their organisation's prefix:
// example_widgets_gadget). Such a type is named as if its first segment
// were the provider (group widgets.example.m.cairn-iac.io, kind Gadget),
// and its Kind still records provider as the one serving it.
func KindForServed(provider, typeName string) (Kind, error) {
	if strings.HasPrefix(typeName, provider+"_") {
		return KindFor(provider, typeName)
	}
	prefix, _, _ := strings.Cut(typeName, "_")
	k, err := KindFor(prefix, typeName)
	if err != nil {
		return Kind{}, err
	}
	k.Provider = provider
	return k, nil
}

// plural is the lowercase plural of a kind, as English has it
// (AccessPolicy: accesspolicies). A kind ending in a digit, which
// inflection leaves alone, takes an s (VpcEndpointV2: vpcendpointv2s).
func plural(kind string) string {
	p := inflection.Plural(kind)
	if p == kind && kind != "" && kind[len(kind)-1] >= '0' && kind[len(kind)-1] <= '9' {
		p += "s"
	}
	return strings.ToLower(p)
}

// ProviderConfigKinds returns the kinds that configure a provider: the
// namespaced ProviderConfig, for managed resources of its namespace, and
// the cluster-scoped ClusterProviderConfig, for any namespace. Both live
// in the provider's group.
func ProviderConfigKinds(provider string) (namespaced, cluster Kind) {
	group := providerGroup(provider)
	mk := func(kind string) Kind {
		return Kind{
			Provider: provider, Group: group, Version: Version,
			Kind: kind, ListKind: kind + "List",
			Plural:   plural(kind),
			Singular: strings.ToLower(kind),
		}
	}
	return mk("ProviderConfig"), mk("ClusterProviderConfig")
}

// kindName joins the words of a snake_case name, each capitalised
// (log_group: LogGroup; vpc_endpoint_v2: VpcEndpointV2). Unlike field
// names, no underscore survives: Kubernetes kinds are DNS labels once
// lowercased.
func kindName(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if w == "" {
			continue
		}
		if isLower(w[0]) {
			b.WriteByte(w[0] - ('a' - 'A'))
			w = w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

func isLower(c byte) bool  { return c >= 'a' && c <= 'z' }
func isLetter(c byte) bool { return isLower(c) || (c >= 'A' && c <= 'Z') }
