package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
)

func TestParseProviderSource(t *testing.T) {
	cases := map[string]struct {
		reason  string
		input   string
		want    Provider
		wantErr bool
	}{
		"TypeOnly": {
			reason: "A bare type is a hashicorp provider on the public registry.",
			input:  "aws",
			want:   Provider{Hostname: "registry.terraform.io", Namespace: "hashicorp", Type: "aws"},
		},
		"NamespaceAndType": {
			input: "integrations/github",
			want:  Provider{Hostname: "registry.terraform.io", Namespace: "integrations", Type: "github"},
		},
		"HostNamespaceType": {
			input: "example.com/acme/widget",
			want:  Provider{Hostname: "example.com", Namespace: "acme", Type: "widget"},
		},
		"HostWithPort": {
			reason: "A registry on another port, as Terraform's host names allow.",
			input:  "127.0.0.1:8443/acme/widget",
			want:   Provider{Hostname: "127.0.0.1:8443", Namespace: "acme", Type: "widget"},
		},
		"DefaultPortDropped": {
			reason: "Terraform normalizes :443 away.",
			input:  "example.com:443/acme/widget",
			want:   Provider{Hostname: "example.com", Namespace: "acme", Type: "widget"},
		},
		"BadPort": {
			input:   "example.com:0x1/acme/widget",
			wantErr: true,
		},
		"PortOnNamespace": {
			input:   "example.com/acme:1/widget",
			wantErr: true,
		},
		"BuiltIn": {
			input: "terraform.io/builtin/terraform",
			want:  NewBuiltInProvider("terraform"),
		},
		"UpperCaseIsNormalized": {
			reason: "Source addresses compare case-insensitively, so they are stored in lower case.",
			input:  "Example.COM/Acme/Widget",
			want:   Provider{Hostname: "example.com", Namespace: "acme", Type: "widget"},
		},
		"DashesAndUnderscores": {
			input: "my-org/my_provider",
			want:  Provider{Hostname: "registry.terraform.io", Namespace: "my-org", Type: "my_provider"},
		},
		"Empty":          {input: "", wantErr: true},
		"EmptyNamespace": {input: "/aws", wantErr: true},
		"TrailingSlash":  {input: "hashicorp/aws/", wantErr: true},
		"DoubleSlash":    {input: "example.com//aws", wantErr: true},
		"FourParts":      {input: "a/b/c/d", wantErr: true},
		"Space":          {input: "hashicorp/a ws", wantErr: true},
		"Quote":          {reason: "A quote would break the state-file form provider[\"...\"].", input: `hashicorp/a"ws`, wantErr: true},
		"ClosingBracket": {input: `hashicorp/aws"]`, wantErr: true},
		"NonASCIILetter": {input: "hashicorp/äws", wantErr: true},
		"PortNotANumber": {reason: "A host may carry a port, as in Terraform; the port is digits.", input: "example.com:http/a/b", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ParseProviderSource(tc.input)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nParseProviderSource(%q): error %v, want error %t", tc.reason, tc.input, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if err != nil {
				return
			}
			back, err := ParseProviderSource(got.String())
			if err != nil {
				t.Fatalf("%s\nString() %q does not parse back: %s", tc.reason, got.String(), err)
			}
			if diff := cmp.Diff(got, back); diff != "" {
				t.Errorf("%s\nround trip through %q: -want +got:\n%s", tc.reason, got.String(), diff)
			}
		})
	}
}

func TestProviderForDisplay(t *testing.T) {
	cases := map[string]struct {
		p    Provider
		want string
	}{
		"DefaultRegistry": {p: NewDefaultProvider("aws"), want: "hashicorp/aws"},
		"OtherHost":       {p: Provider{Hostname: "example.com", Namespace: "a", Type: "b"}, want: "example.com/a/b"},
		"BuiltIn":         {p: NewBuiltInProvider("terraform"), want: "terraform.io/builtin/terraform"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.p.ForDisplay()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestSortedProviders(t *testing.T) {
	aws, random := NewDefaultProvider("aws"), NewDefaultProvider("random")
	tf := NewBuiltInProvider("terraform")
	other := Provider{Hostname: "example.com", Namespace: "a", Type: "b"}
	cases := map[string]struct {
		lists [][]Provider
		want  []Provider
	}{
		"None":       {lists: nil, want: []Provider{}},
		"EmptyLists": {lists: [][]Provider{nil, {}}, want: []Provider{}},
		"AddressOrder": {
			lists: [][]Provider{{tf, random, other, aws}},
			want:  []Provider{other, aws, random, tf},
		},
		"Union": {
			lists: [][]Provider{{random, aws}, {aws, tf}, {random}},
			want:  []Provider{aws, random, tf},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := SortedProviders(tc.lists...)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestAbsProviderConfigStringRoundTrip(t *testing.T) {
	cases := map[string]struct {
		addr AbsProviderConfig
		want string
	}{
		"Default": {
			addr: AbsProviderConfig{Provider: NewDefaultProvider("aws")},
			want: `provider["registry.terraform.io/hashicorp/aws"]`,
		},
		"Alias": {
			addr: AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "west"},
			want: `provider["registry.terraform.io/hashicorp/aws"].west`,
		},
		"AliasWithDashAndDigits": {
			addr: AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "us-west_2"},
			want: `provider["registry.terraform.io/hashicorp/aws"].us-west_2`,
		},
		"BuiltIn": {
			addr: AbsProviderConfig{Provider: NewBuiltInProvider("terraform")},
			want: `provider["terraform.io/builtin/terraform"]`,
		},
		"OtherHost": {
			addr: AbsProviderConfig{Provider: Provider{Hostname: "example.com", Namespace: "acme", Type: "widget"}},
			want: `provider["example.com/acme/widget"]`,
		},
		"ChildModule": {
			addr: AbsProviderConfig{Module: Module{"a", "b"}, Provider: NewDefaultProvider("aws"), Alias: "west"},
			want: `module.a.module.b.provider["registry.terraform.io/hashicorp/aws"].west`,
		},
		"InstanceKey": {
			addr: AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "by_region", Key: StringKey("us-east-1")},
			want: `provider["registry.terraform.io/hashicorp/aws"].by_region["us-east-1"]`,
		},
		"InstanceKeyWithEscapes": {
			addr: AbsProviderConfig{Module: Module{"a"}, Provider: NewDefaultProvider("aws"), Alias: "r", Key: StringKey("a\"b]c")},
			want: `module.a.provider["registry.terraform.io/hashicorp/aws"].r["a\"b]c"]`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.addr.String()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("String(): -want +got:\n%s", diff)
			}
			back, ds := ParseAbsProviderConfig(got)
			if len(ds) > 0 {
				t.Fatalf("ParseAbsProviderConfig(%q): %s", got, ds.Error())
			}
			if diff := cmp.Diff(tc.addr, back); diff != "" {
				t.Errorf("ParseAbsProviderConfig(%q): -want +got:\n%s", got, diff)
			}
			if back.UniqueKey() != tc.addr.UniqueKey() {
				t.Errorf("parsed %s has a different UniqueKey", back)
			}
		})
	}
}

func TestParseAbsProviderConfig(t *testing.T) {
	invalid := []diagView{{hcl.DiagError, "Invalid provider configuration address"}}
	cases := map[string]struct {
		reason    string
		input     string
		want      AbsProviderConfig
		wantDiags []diagView
	}{
		"ShortSource": {
			reason: "Older state files may hold a short source; it means the same provider.",
			input:  `provider["hashicorp/aws"]`,
			want:   AbsProviderConfig{Provider: NewDefaultProvider("aws")},
		},
		"TypeOnlySource": {
			input: `provider["aws"].east`,
			want:  AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "east"},
		},
		"ChildModule": {
			reason: "State files name provider configurations of child modules by their static module path.",
			input:  `module.a.module.b.provider["registry.terraform.io/hashicorp/aws"].west`,
			want:   AbsProviderConfig{Module: Module{"a", "b"}, Provider: NewDefaultProvider("aws"), Alias: "west"},
		},
		"ModuleInstanceKey": {
			reason:    "A provider configuration belongs to a module, not to one of its instances.",
			input:     `module.a[0].provider["hashicorp/aws"]`,
			wantDiags: invalid,
		},
		"ModuleNoDot":     {input: `module.aprovider["hashicorp/aws"]`, wantDiags: invalid},
		"NoPrefix":        {input: `registry.terraform.io/hashicorp/aws`, wantDiags: invalid},
		"Unquoted":        {input: `provider.aws`, wantDiags: invalid},
		"Unclosed":        {input: `provider["registry.terraform.io/hashicorp/aws`, wantDiags: invalid},
		"BadSource":       {input: `provider["a/b/c/d"]`, wantDiags: invalid},
		"EmptySource":     {input: `provider[""]`, wantDiags: invalid},
		"AliasWithoutDot": {input: `provider["hashicorp/aws"]west`, wantDiags: invalid},
		"EmptyAlias":      {input: `provider["hashicorp/aws"].`, wantDiags: invalid},
		"AliasWithDot":    {input: `provider["hashicorp/aws"].a.b`, wantDiags: invalid},
		"InstanceKey": {
			reason: "OpenTofu 1.9 records the provider instance of each resource instance that uses a provider configuration with for_each.",
			input:  `provider["hashicorp/aws"].a["x"]`,
			want:   AbsProviderConfig{Provider: NewDefaultProvider("aws"), Alias: "a", Key: StringKey("x")},
		},
		"KeyWithoutAlias": {input: `provider["hashicorp/aws"]["x"]`, wantDiags: invalid},
		"TwoKeys":         {input: `provider["hashicorp/aws"].a["x"]["y"]`, wantDiags: invalid},
		"KeyNotIndex":     {input: `provider["hashicorp/aws"].a[x]`, wantDiags: invalid},
		"KeyUnclosed":     {input: `provider["hashicorp/aws"].a["x"`, wantDiags: invalid},
		"Empty":           {input: ``, wantDiags: invalid},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ds := ParseAbsProviderConfig(tc.input)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
