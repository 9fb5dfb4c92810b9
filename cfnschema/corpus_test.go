package cfnschema

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/jinzhu/inflection"
)

// corpus loads the shared schema directory once for all corpus tests.
var corpus struct {
	once  sync.Once
	files []string
	cat   *Catalog
	diags Diagnostics
}

func loadCorpus(t *testing.T) (*Catalog, Diagnostics, []string) {
	t.Helper()
	dir := corpusDir(t)
	corpus.once.Do(func() {
		corpus.files, _ = filepath.Glob(filepath.Join(dir, "*.json"))
		corpus.cat, corpus.diags = LoadDir(dir)
	})
	return corpus.cat, corpus.diags, corpus.files
}

// TestCorpus loads every schema of the AWS registry and checks that each
// one translates into three valid framework schemas with awscc's names.
func TestCorpus(t *testing.T) {
	c, diags, files := loadCorpus(t)
	if errs := diags.Errors(); len(errs) > 0 {
		for _, d := range errs {
			t.Error(d)
		}
	}
	for _, d := range diags {
		if d.Severity == Warning {
			t.Log(d)
		}
	}
	if got, want := len(c.Types()), len(files); got != want {
		t.Errorf("%d of %d schemas translate", got, want)
	}
	if s := c.Suppressed(); len(s) != 0 {
		t.Errorf("no AWS type needs suppressing, got %v", s)
	}
	ctx := context.Background()
	plural := 0
	for _, rt := range c.Types() {
		rs := rt.ResourceSchema()
		if d := rs.ValidateImplementation(ctx); d.HasError() {
			t.Errorf("%s resource schema: %v", rt.TypeName, d)
		}
		if d := rt.DataSourceSchema().ValidateImplementation(ctx); d.HasError() {
			t.Errorf("%s data source schema: %v", rt.TypeName, d)
		}
		if ps, ok := rt.PluralDataSourceSchema(); ok {
			plural++
			if d := ps.ValidateImplementation(ctx); d.HasError() {
				t.Errorf("%s plural data source schema: %v", rt.TypeName, d)
			}
		}
		checkTypeName(t, rt)
		checkAttributeNames(t, rt)
		checkSchemaMatchesRecords(t, rt, rs)
	}
	t.Logf("%d resources, %d singular data sources, %d plural data sources (awscc: 1443, 1444, 1091)", len(c.Types()), len(c.Types()), plural)
}

// checkTypeName applies awscc's type-name rule independently.
func checkTypeName(t *testing.T, rt *ResourceType) {
	parts := strings.Split(rt.TypeName, "::")
	want := "awscc_" + strings.ToLower(parts[1]) + "_" + AttributeName(parts[2])
	if rt.TerraformName != want {
		t.Errorf("%s: Terraform name %s, awscc's rule gives %s", rt.TypeName, rt.TerraformName, want)
	}
}

// checkAttributeNames: every attribute is its property's snake-cased name
// unless a recorded reason says why not.
func checkAttributeNames(t *testing.T, rt *ResourceType) {
	rt.Walk(func(a *Attribute) {
		if a.CFNName == "" || AttributeName(a.CFNName) == a.Name {
			return
		}
		for _, r := range a.Reasons {
			if strings.HasPrefix(r, "renamed from") || strings.HasPrefix(r, "named ") {
				return
			}
		}
		t.Errorf("%s %s: named %s without a reason; AttributeName gives %s", rt.TypeName, a.Pointer, a.Name, AttributeName(a.CFNName))
	})
}

// checkSchemaMatchesRecords walks the framework schema and compares each
// attribute's flags with its translation record, so Explain can never
// describe something other than what is served.
func checkSchemaMatchesRecords(t *testing.T, rt *ResourceType, rs rschema.Schema) {
	type flags struct{ R, O, C, S bool }
	got := map[string]flags{}
	var walk func(prefix string, attrs map[string]rschema.Attribute)
	walk = func(prefix string, attrs map[string]rschema.Attribute) {
		for name, a := range attrs {
			got[prefix+name] = flags{a.IsRequired(), a.IsOptional(), a.IsComputed(), a.IsSensitive()}
			if _, _, _, nested, step := attributeParts(a); nested != nil {
				walk(prefix+name+step, nested)
			}
		}
	}
	walk("", rs.Attributes)
	want := map[string]flags{}
	rt.Walk(func(a *Attribute) {
		if !a.InElementType {
			want[a.Path.String()] = flags{a.Required, a.Optional, a.Computed, a.Sensitive}
		}
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: framework schema differs from the translation records: -records +schema:\n%s", rt.TypeName, diff)
	}
}

// TestCorpusFacts checks the figures the awscc reference gives for the same
// corpus, and that every type awscc suppresses now generates.
func TestCorpusFacts(t *testing.T) {
	c, _, _ := loadCorpus(t)
	got := map[string]int{}
	for _, rt := range c.Types() {
		if len(rt.PrimaryIdentifier) > 1 {
			got["multi-part primary identifiers"]++
		}
		recursive := false
		rt.Walk(func(a *Attribute) {
			for _, r := range a.Reasons {
				switch {
				case strings.HasPrefix(r, "renamed from id"):
					got["top-level Id renamed"]++
				case strings.HasPrefix(r, "renamed from provider"):
					got["top-level Provider renamed"]++
				case strings.Contains(r, "is recursive"):
					recursive = true
				}
			}
		})
		if recursive {
			got["recursive types"]++
		}
	}
	want := map[string]int{
		"multi-part primary identifiers": 288,
		"top-level Id renamed":           251,
		"top-level Provider renamed":     7,
		"recursive types":                17,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("corpus facts from the awscc reference: -want +got:\n%s", diff)
	}
	awsccSuppressed := []string{
		// recursive definitions
		"AWS::WAFv2::WebACL", "AWS::WAFv2::RuleGroup", "AWS::AmplifyUIBuilder::Component",
		"AWS::AmplifyUIBuilder::Form", "AWS::AmplifyUIBuilder::Theme", "AWS::Bedrock::Flow",
		"AWS::Connect::EvaluationForm", "AWS::IoTTwinMaker::ComponentType", "AWS::IoTTwinMaker::Entity",
		// names that collide only in awscc's flat map
		"AWS::AmazonMQ::Broker", "AWS::CloudFront::Distribution", "AWS::CloudFront::AnycastIpList",
		"AWS::EKS::Nodegroup", "AWS::EMRContainers::SecurityConfiguration", "AWS::EMRContainers::VirtualCluster",
		"AWS::MediaPackage::Channel", "AWS::MediaPackage::OriginEndpoint", "AWS::VpcLattice::TargetGroup",
		"AWS::Cognito::UserPool", "AWS::VpcLattice::DomainVerification", "AWS::WorkSpaces::Workspace",
		// anyOf-only properties
		"AWS::ControlTower::EnabledBaseline", "AWS::DataBrew::Recipe", "AWS::SecurityHub::AutomationRule",
		// unsupported shapes and others
		"AWS::Connect::Rule", "AWS::Rekognition::StreamProcessor", "AWS::Transfer::User", "AWS::Logs::Transformer",
		"AWS::ObservabilityAdmin::TelemetryPipelines",
	}
	for _, name := range awsccSuppressed {
		if rt := c.Type(name); rt == nil || rt.Suppressed != "" {
			t.Errorf("%s, suppressed by awscc, does not generate", name)
		}
	}
}

// TestPluralNameMatchesInflection checks PluralName's short-string use of
// the inflection library against awscc's rule applied to the whole name.
func TestPluralNameMatchesInflection(t *testing.T) {
	c, _, _ := loadCorpus(t)
	for _, rt := range c.Types() {
		name := rt.TerraformName
		want := inflection.Plural(name)
		if strings.HasSuffix(name, "lens") {
			want = name + "es"
		}
		if want == name {
			want = PluralName(name) // the suffix rules are PluralName's own
		}
		if got := PluralName(name); got != want {
			t.Errorf("PluralName(%s) = %s, inflection on the whole name gives %s", name, got, want)
		}
	}
}

// TestCorpusWriteOnlyThroughArrays: awscc drops the 55 write-only paths
// that go through arrays; Cairn exposes them.
func TestCorpusWriteOnlyThroughArrays(t *testing.T) {
	c, _, _ := loadCorpus(t)
	rt := c.Type("AWS::S3::Bucket")
	if rt == nil {
		t.Skip("no S3 Bucket schema")
	}
	var got []string
	for _, p := range rt.WriteOnly {
		if strings.Contains(p.String(), "[*]") {
			got = append(got, p.String())
		}
	}
	want := []string{
		"lifecycle_configuration.rules[*].expired_object_delete_marker",
		"lifecycle_configuration.rules[*].noncurrent_version_expiration_in_days",
		"lifecycle_configuration.rules[*].noncurrent_version_transition",
		"lifecycle_configuration.rules[*].transition",
		"replication_configuration.rules[*].prefix",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	_ = os.Getenv
}

// TestCorpusAwsccNames checks attribute names that awscc's documentation
// shows for these types, so existing configurations keep working.
func TestCorpusAwsccNames(t *testing.T) {
	c, _, _ := loadCorpus(t)
	cases := map[string]struct {
		reason   string
		typeName string
		path     string
	}{
		"flow log id":         {"top-level Id → <resource>_id", "AWS::EC2::FlowLog", "flow_log_id"},
		"regex pattern set":   {"the resource part is the whole snake-cased resource name", "AWS::WAFv2::RegexPatternSet", "regex_pattern_set_id"},
		"provider_name":       {"top-level Provider → provider_name", "AWS::CodePipeline::CustomActionType", "provider_name"},
		"ipv_6_addresses":     {"awscc's digit handling", "AWS::EC2::Instance", "ipv_6_addresses"},
		"ipv_6_address_count": {"", "AWS::EC2::Instance", "ipv_6_address_count"},
		"bucket name":         {"", "AWS::S3::Bucket", "bucket_name"},
		"nested id":           {"a nested Id stays id beside the renamed top-level one", "AWS::CloudFront::Distribution", "distribution_config.origins[*].id"},
		"distribution id":     {"", "AWS::CloudFront::Distribution", "distribution_id"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rt := c.Type(tc.typeName)
			if rt == nil {
				t.Fatalf("%s not loaded", tc.typeName)
			}
			if rt.Attribute(tc.path) == nil {
				t.Errorf("%s\n%s has no attribute %s", tc.reason, rt.TerraformName, tc.path)
			}
		})
	}
}

// TestCorpusNothingSensitive: HashiCorp's awscc (v1.97.0, `providers schema
// -json`) declares no resource or data source attribute Sensitive, so a
// configuration that outputs a write-only value (awscc_amplify_app's
// access_token) plans without `sensitive = true`. Cairn serves the same
// flags; write-only values are masked instead, for its own front ends.
func TestCorpusNothingSensitive(t *testing.T) {
	c, _, _ := loadCorpus(t)
	masked := 0
	for _, rt := range c.Types() {
		rt.Walk(func(a *Attribute) {
			if a.Sensitive {
				t.Errorf("%s %s is Sensitive; awscc marks nothing Sensitive", rt.TypeName, a.Path)
			}
			if a.Masked {
				masked++
			}
		})
	}
	if masked == 0 {
		t.Error("no attribute is masked, though the corpus has write-only properties")
	}
}
