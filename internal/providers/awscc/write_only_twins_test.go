package awscc

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/cairn-iac/cairn/cfnschema"
)

// TestWriteOnlyTwinsCorpus counts the twins of the 1,489 types and checks
// the shapes the twins take there: a top-level optional property
// (conflicts with its twin), a required one (exactly one of the two), a
// property inside an object (twin at the top level, named by its path),
// one NotNull inside an optional object, and a create-only one (its
// version replaces). Every type's schema, twins included, passes the
// framework's validation (GetProviderSchema has no errors).
func TestWriteOnlyTwinsCorpus(t *testing.T) {
	dir := corpusDir(t)
	c, ds := cfnschema.LoadDir(dir)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var types, twins, topOptional, required, nested, exactlyOne, beforeTypes, before int
	byName := map[string]twin{}
	for _, rt := range c.Types() {
		tws := twinsOf(rt)
		if len(tws) > 0 {
			types++
		}
		// What had twins before nested and required properties did.
		n := 0
		for _, a := range rt.Attributes {
			if a.WriteOnly && a.Optional && !a.Required && a.CFNName != "" && a.Type.Kind == cfnschema.KindString {
				n++
			}
		}
		if before += n; n > 0 {
			beforeTypes++
		}
		for _, tw := range tws {
			twins++
			byName[rt.TerraformName+"."+tw.name()] = tw
			switch {
			case len(tw.prop.Path) > 1:
				nested++
			case tw.prop.Required:
				required++
			default:
				topOptional++
			}
			if tw.exactlyOne {
				exactlyOne++
			}
		}
	}
	t.Logf("before: %d types had %d twins", beforeTypes, before)
	t.Logf("%d types have %d twins: %d top-level optional, %d top-level required, %d nested in objects; %d stand in for a value that must be set",
		types, twins, topOptional, required, nested, exactlyOne)
	for name, want := range map[string]struct {
		pointer    string
		exactlyOne bool
	}{
		"awscc_secretsmanager_secret.secret_string_wo":                           {"/properties/SecretString", false},
		"awscc_msk_configuration.server_properties_wo":                           {"/properties/ServerProperties", true},
		"awscc_iam_user.login_profile_password_wo":                               {"/properties/LoginProfile/Password", true},
		"awscc_amazonmq_broker.ldap_server_metadata_service_account_password_wo": {"/properties/LdapServerMetadata/ServiceAccountPassword", false},
	} {
		tw, ok := byName[name]
		if !ok {
			t.Errorf("no twin %s", name)
			continue
		}
		if tw.prop.Pointer != want.pointer || tw.exactlyOne != want.exactlyOne {
			t.Errorf("%s: pointer %s exactlyOne %v, want %s %v", name, tw.prop.Pointer, tw.exactlyOne, want.pointer, want.exactlyOne)
		}
	}
	p, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	resp := inst.GetProviderSchema(context.Background())
	if resp.Diagnostics.HasErrors() {
		t.Fatalf("GetProviderSchema: %v", resp.Diagnostics)
	}
	user := resp.ResourceTypes["awscc_iam_user"].Block
	if a := user.Attributes["login_profile_password_wo"]; a == nil || !a.WriteOnly || !a.Masked {
		t.Errorf("login_profile_password_wo = %+v, want a masked write-only attribute", a)
	}
	msk := resp.ResourceTypes["awscc_msk_configuration"].Block
	if a := msk.Attributes["server_properties"]; a == nil || a.Required || !a.Optional {
		t.Errorf("server_properties = %+v, want optional now that its twin may stand in", a)
	}
}

// TestTwinPatch checks the update patch's adds for twins: at the
// property when its object will exist, with its object otherwise, two
// twins of one missing object in one add.
func TestTwinPatch(t *testing.T) {
	objTy := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"password": tftypes.String, "user": tftypes.String}}
	ty := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"login": objTy}}
	obj := func(v any) tftypes.Value {
		return tftypes.NewValue(ty, map[string]tftypes.Value{"login": tftypes.NewValue(objTy, v)})
	}
	present := map[string]tftypes.Value{"password": tftypes.NewValue(tftypes.String, nil), "user": tftypes.NewValue(tftypes.String, "u")}
	pw := twin{prop: &cfnschema.Attribute{Path: cfnschema.Path{"login", "password"}}, cfnPath: []string{"Login", "Password"}}
	user := twin{prop: &cfnschema.Attribute{Path: cfnschema.Path{"login", "user"}}, cfnPath: []string{"Login", "User"}}
	top := twin{prop: &cfnschema.Attribute{Path: cfnschema.Path{"secret"}}, cfnPath: []string{"Secret"}}
	cases := map[string]struct {
		reason         string
		prior, planned tftypes.Value
		vals           []twinValue
		want           string
	}{
		"top level": {reason: "a top-level property is added where it is",
			prior: obj(nil), planned: obj(nil), vals: []twinValue{{top, "s"}},
			want: `[{"op":"add","path":"/Secret","value":"s"}]`},
		"object exists": {reason: "the object stays: the property is added in it",
			prior: obj(present), planned: obj(present), vals: []twinValue{{pw, "p"}},
			want: `[{"op":"add","path":"/Login/Password","value":"p"}]`},
		"object missing": {reason: "the object is null in the plan: it is added with the twins it holds",
			prior: obj(nil), planned: obj(nil), vals: []twinValue{{pw, "p"}, {user, "u2"}},
			want: `[{"op":"add","path":"/Login","value":{"Password":"p","User":"u2"}}]`},
		"unknown, existed": {reason: "an object the plan leaves unknown exists if it did",
			prior: obj(present), planned: obj(tftypes.UnknownValue), vals: []twinValue{{pw, "p"}},
			want: `[{"op":"add","path":"/Login/Password","value":"p"}]`},
		"unknown, new": {reason: "an unknown object that did not exist is added",
			prior: obj(nil), planned: obj(tftypes.UnknownValue), vals: []twinValue{{pw, "p"}},
			want: `[{"op":"add","path":"/Login","value":{"Password":"p"}}]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := patchWithTwins("[]", tc.vals, tc.prior, tc.planned)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			_ = json.Unmarshal([]byte(got), &g)
			_ = json.Unmarshal([]byte(tc.want), &w)
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

// TestWithTwins: a create's document gets each twin's value at its
// property, with the objects that hold it made where the plan has none.
func TestWithTwins(t *testing.T) {
	doc := map[string]any{"Name": "n", "Login": map[string]any{"User": "u"}}
	withTwins(doc, []twinValue{
		{twin{cfnPath: []string{"Login", "Password"}}, "p"},
		{twin{cfnPath: []string{"Other", "Deep", "Key"}}, "k"},
		{twin{cfnPath: []string{"Secret"}}, "s"},
	})
	want := map[string]any{"Name": "n", "Secret": "s", "Login": map[string]any{"User": "u", "Password": "p"},
		"Other": map[string]any{"Deep": map[string]any{"Key": "k"}}}
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
}

// BenchmarkTwinsOf finds the twins of AWS::DMS::Endpoint (ten nested
// settings objects, nine write-only strings in them), as every create and
// update of it does.
func BenchmarkTwinsOf(b *testing.B) {
	c, ds := cfnschema.LoadFiles([]string{filepath.Join(corpusDir(b), "AWS_DMS_Endpoint.json")})
	if ds.HasErrors() {
		b.Fatal(ds)
	}
	rt := c.Types()[0]
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = len(twinsOf(rt))
	}
	b.ReportMetric(float64(n), "twins")
}

// TestAddWriteOnlyTwinsShapes checks the framework schema the twins give
// three types of the corpus: the property a twin stands in for is
// optional, with no NotNull check left and an exactly-one check; the
// version of a create-only property's twin replaces the resource, the
// version of any other does not.
func TestAddWriteOnlyTwinsShapes(t *testing.T) {
	dir := corpusDir(t)
	c, ds := cfnschema.LoadFiles([]string{
		filepath.Join(dir, "AWS_MSK_Configuration.json"), filepath.Join(dir, "AWS_IAM_User.json"), filepath.Join(dir, "AWS_DataZone_Project.json"),
	})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	schemaOf := func(typeName string) schema.Schema {
		rt := c.Type(typeName)
		s := rt.ResourceSchema()
		addWriteOnlyTwins(rt, &s)
		return s
	}
	cases := map[string]struct {
		reason       string
		typeName     string
		prop         []string
		version      string
		wantReplaces bool
	}{
		"required": {reason: "a required property becomes optional", typeName: "AWS::MSK::Configuration",
			prop: []string{"server_properties"}, version: "server_properties_wo_version"},
		"not null in an object": {reason: "a NotNull member of an optional object loses the NotNull check", typeName: "AWS::IAM::User",
			prop: []string{"login_profile", "password"}, version: "login_profile_password_wo_version"},
		"create-only": {reason: "a create-only property's twin version replaces", typeName: "AWS::DataZone::Project",
			prop: []string{"domain_identifier"}, version: "domain_identifier_wo_version", wantReplaces: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := schemaOf(tc.typeName)
			attrs := s.Attributes
			for _, n := range tc.prop[:len(tc.prop)-1] {
				attrs = attrs[n].(schema.SingleNestedAttribute).Attributes
			}
			a := attrs[tc.prop[len(tc.prop)-1]].(schema.StringAttribute)
			if a.Required || !a.Optional {
				t.Errorf("%s: %v required %v optional %v", tc.reason, tc.prop, a.Required, a.Optional)
			}
			exactly := 0
			for _, v := range a.Validators {
				if cfnschema.IsNotNull(v) {
					t.Errorf("%s: %v keeps its NotNull check", tc.reason, tc.prop)
				}
				if strings.Contains(v.Description(context.Background()), "Ensure that one and only one attribute") {
					exactly++
				}
			}
			if exactly != 1 {
				t.Errorf("%s: %d exactly-one checks on %v, want 1", tc.reason, exactly, tc.prop)
			}
			ver, ok := s.Attributes[tc.version].(schema.Int64Attribute)
			if !ok {
				t.Fatalf("no %s", tc.version)
			}
			if got := len(ver.PlanModifiers) > 0; got != tc.wantReplaces {
				t.Errorf("%s: %s replaces %v, want %v", tc.reason, tc.version, got, tc.wantReplaces)
			}
		})
	}
}
