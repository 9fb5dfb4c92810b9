package cfnschema

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// corpusDir is the shared directory of real CloudFormation schemas, relative
// to this package; CAIRN_CFN_SCHEMAS overrides it.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("CAIRN_CFN_SCHEMAS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "cfn-schemas")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the CloudFormation schema corpus is not available at %s (set CAIRN_CFN_SCHEMAS): %v", dir, err)
	}
	return dir
}

// goldenTypes are representative real types: common ones, deep ones,
// recursive ones and ones awscc cannot generate.
var goldenTypes = []string{
	"AWS::ApiGateway::RestApi", "AWS::CloudFront::Distribution", "AWS::Cognito::UserPool",
	"AWS::DynamoDB::Table", "AWS::EC2::FlowLog", "AWS::EC2::Instance", "AWS::EC2::SecurityGroup",
	"AWS::EC2::VPC", "AWS::ECS::TaskDefinition", "AWS::EKS::Cluster", "AWS::IAM::Role",
	"AWS::KMS::Key", "AWS::Lambda::Function", "AWS::Logs::LogGroup", "AWS::RDS::DBInstance",
	"AWS::S3::Bucket", "AWS::SNS::Topic", "AWS::SQS::Queue", "AWS::StepFunctions::StateMachine",
	"AWS::WAFv2::WebACL",
}

// explainGoldenTypes also get their Explain text checked, which locks the
// format of `cairn cfn explain`.
var explainGoldenTypes = []string{"AWS::EC2::FlowLog", "AWS::S3::Bucket"}

func TestGolden(t *testing.T) {
	dir := corpusDir(t)
	var files []string
	for _, name := range goldenTypes {
		files = append(files, filepath.Join(dir, strings.ReplaceAll(name, "::", "_")+".json"))
	}
	c, diags := LoadFiles(files)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, name := range goldenTypes {
		t.Run(name, func(t *testing.T) {
			rt := c.Type(name)
			if rt == nil {
				t.Fatalf("%s did not load", name)
			}
			checkGolden(t, filepath.Join("testdata", "golden", rt.TerraformName+".txt"), renderSchemas(rt))
		})
	}
	for _, name := range explainGoldenTypes {
		t.Run("explain "+name, func(t *testing.T) {
			rt := c.Type(name)
			checkGolden(t, filepath.Join("testdata", "golden", "explain", rt.TerraformName+".txt"), rt.Explain())
		})
	}
}

func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (go test -run TestGolden -update rewrites it): -want +got:\n%s", file, diff)
	}
}

// renderSchemas renders the generated framework schemas of a type in a
// stable text form, one line per resource attribute, read back from the
// framework structures themselves rather than from the translation records.
func renderSchemas(rt *ResourceType) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource %s (%s)\n", rt.TerraformName, rt.TypeName)
	ds := rt.DataSourceSchema()
	fmt.Fprintf(&b, "data source %s: %d attributes, %s\n", rt.TerraformName, len(ds.Attributes), dataSourceFlags(ds.Attributes))
	if ps, ok := rt.PluralDataSourceSchema(); ok {
		fmt.Fprintf(&b, "plural data source %s: %s\n", rt.PluralName, strings.Join(slices.Sorted(maps.Keys(ps.Attributes)), ", "))
	} else {
		fmt.Fprintf(&b, "plural data source: none (%s)\n", rt.PluralUnavailable)
	}
	renderAttributes(&b, "", rt.ResourceSchema().Attributes)
	return b.String()
}

func dataSourceFlags[A interface{ IsRequired() bool }](attrs map[string]A) string {
	var required []string
	for name, a := range attrs {
		if a.IsRequired() {
			required = append(required, name)
		}
	}
	sort.Strings(required)
	return "required: " + strings.Join(required, ", ") + "; all others computed"
}

func renderAttributes(b *strings.Builder, prefix string, attrs map[string]rschema.Attribute) {
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		a := attrs[name]
		path := prefix + name
		var flags []string
		for _, f := range []struct {
			on   bool
			name string
		}{{a.IsRequired(), "R"}, {a.IsOptional(), "O"}, {a.IsComputed(), "C"}, {a.IsSensitive(), "S"}} {
			if f.on {
				flags = append(flags, f.name)
			}
		}
		kind, vals, mods, nested, step := attributeParts(a)
		fmt.Fprintf(b, "%s %s %s", path, kind, strings.Join(flags, ""))
		if len(vals) > 0 {
			fmt.Fprintf(b, " validators=[%s]", strings.Join(vals, "; "))
		}
		if len(mods) > 0 {
			fmt.Fprintf(b, " modifiers=[%s]", shortModifiers.Replace(strings.Join(mods, "; ")))
		}
		b.WriteByte('\n')
		if nested != nil {
			renderAttributes(b, path+step, nested)
		}
	}
}

// shortModifiers abbreviates the stock plan modifiers' long descriptions,
// which would otherwise make up most of a golden file.
var shortModifiers = strings.NewReplacer(
	useState, "UseStateForUnknown",
	replaceIfConfigured, "RequiresReplaceIfConfigured",
	replace, "RequiresReplace",
)

// attributeParts takes a framework attribute apart: its kind, validator and
// plan modifier descriptions, and nested attributes with the path step to
// them.
func attributeParts(a rschema.Attribute) (kind string, vals, mods []string, nested map[string]rschema.Attribute, step string) {
	typeName := func(t attr.Type) string { return t.String() }
	switch a := a.(type) {
	case rschema.StringAttribute:
		kind = "String"
		if a.CustomType != nil {
			kind = typeName(a.CustomType)
		}
		return kind, describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	case rschema.Int64Attribute:
		return "Int64", describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	case rschema.Float64Attribute:
		return "Float64", describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	case rschema.BoolAttribute:
		return "Bool", describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	case rschema.SingleNestedAttribute:
		return "SingleNested", describeAll(a.Validators), describeAll(a.PlanModifiers), a.Attributes, "."
	case rschema.ListNestedAttribute:
		return "ListNested", describeAll(a.Validators), describeAll(a.PlanModifiers), a.NestedObject.Attributes, "[*]."
	case rschema.SetNestedAttribute:
		return "SetNested", describeAll(a.Validators), describeAll(a.PlanModifiers), a.NestedObject.Attributes, "[*]."
	case rschema.MapNestedAttribute:
		return "MapNested", describeAll(a.Validators), describeAll(a.PlanModifiers), a.NestedObject.Attributes, "[*]."
	case rschema.ListAttribute:
		return "List[" + typeName(a.ElementType) + "]", describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	case rschema.SetAttribute:
		return "Set[" + typeName(a.ElementType) + "]", describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	case rschema.MapAttribute:
		return "Map[" + typeName(a.ElementType) + "]", describeAll(a.Validators), describeAll(a.PlanModifiers), nil, ""
	}
	return fmt.Sprintf("%T", a), nil, nil, nil, ""
}

// TestExplainUnknownType covers the error of Catalog.Explain.
func TestExplainUnknownType(t *testing.T) {
	c, _ := LoadFiles([]string{filepath.Join("testdata", "rules", "types.json")})
	if _, err := c.Explain("AWS::No::Such"); err == nil {
		t.Errorf("Explain of an unknown type: want an error")
	}
	for _, name := range []string{"Test::Rules::Types", "test_rules_types"} {
		if _, err := c.Explain(name); err != nil {
			t.Errorf("Explain(%q): %v", name, err)
		}
	}
	_ = context.Background
}
