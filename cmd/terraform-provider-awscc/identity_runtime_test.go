package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/testendpoint"
)

// configureFor configures a plugin for Cairn's endpoint at url, as the
// provider block of /work/shared/tools/README.md does.
func configureFor(tb testing.TB, p *plugin, url string) {
	tb.Helper()
	var schema struct {
		Provider struct {
			Block blockJSON `json:"block"`
		} `json:"provider"`
	}
	asJSON(tb, p.call(tb, "GetProviderSchema", nil), &schema)
	ty := schema.Provider.Block.impliedType(tb)
	config := configValue(tb, ty, map[string]cty.Value{
		"region": cty.StringVal("eu-west-1"), "access_key": cty.StringVal("AKID"), "secret_key": cty.StringVal("SECRET"),
		"skip_metadata_api_check": cty.True,
		"endpoints": objectOf(ty.AttributeType("endpoints"), map[string]cty.Value{
			"cloudcontrolapi": cty.StringVal(url), "sts": cty.StringVal(url),
		}),
	})
	resp := p.call(tb, "ConfigureProvider", func(req *dynamicpb.Message) {
		set(req, "terraform_version", "1.14.0")
		dv := child(req, "config")
		set(dv, "msgpack", config)
		set(req, "config", dv)
	})
	failOnErrors(tb, "ConfigureProvider", resp)
}

// failOnErrors fails tb when an answer holds an error diagnostic.
func failOnErrors(tb testing.TB, what string, m *dynamicpb.Message) {
	tb.Helper()
	var a struct {
		Diagnostics []struct {
			Severity string `json:"severity"`
			Summary  string `json:"summary"`
			Detail   string `json:"detail"`
		} `json:"diagnostics"`
	}
	asJSON(tb, m, &a)
	for _, d := range a.Diagnostics {
		if d.Severity == "ERROR" {
			tb.Fatalf("%s: %s: %s", what, d.Summary, d.Detail)
		}
	}
}

// identityOf decodes an identity (a ResourceIdentityData field) of a log
// group.
func identityOf(tb testing.TB, m protoreflect.Message, field string) cty.Value {
	tb.Helper()
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(field))
	if !m.Has(fd) {
		tb.Fatalf("no %s in the answer", field)
	}
	data := m.Get(fd).Message()
	dv := data.Get(data.Descriptor().Fields().ByName("identity_data")).Message()
	raw := dv.Get(dv.Descriptor().Fields().ByName("msgpack")).Bytes()
	ty := cty.Object(map[string]cty.Type{"account_id": cty.String, "log_group_name": cty.String, "region": cty.String})
	v, err := ctymsgpack.Unmarshal(raw, ty)
	if err != nil {
		tb.Fatalf("%s: %v", field, err)
	}
	return v
}

// importAndRead imports a log group by its identifier and reads it, as
// Terraform does, returning the identity of each answer.
func importAndRead(tb testing.TB, p *plugin, id string) (imported, read cty.Value) {
	tb.Helper()
	imp := p.call(tb, "ImportResourceState", func(req *dynamicpb.Message) {
		set(req, "type_name", "awscc_logs_log_group")
		set(req, "id", id)
	})
	failOnErrors(tb, "ImportResourceState", imp)
	list := imp.Get(imp.Descriptor().Fields().ByName("imported_resources")).List()
	if list.Len() != 1 {
		tb.Fatalf("ImportResourceState imported %d objects", list.Len())
	}
	obj := list.Get(0).Message()
	state := obj.Get(obj.Descriptor().Fields().ByName("state")).Message()
	if fd := obj.Descriptor().Fields().ByName("identity"); obj.Has(fd) {
		imported = identityOf(tb, obj, "identity")
	}
	rr := p.call(tb, "ReadResource", func(req *dynamicpb.Message) {
		set(req, "type_name", "awscc_logs_log_group")
		set(req, "current_state", state.Interface().(*dynamicpb.Message))
	})
	failOnErrors(tb, "ReadResource", rr)
	return imported, identityOf(tb, rr, "new_identity")
}

// TestIdentityMatchesHashiCorp imports and reads one log group of Cairn's
// endpoint with HashiCorp's awscc v1.97 and with this plugin, each over
// the plugin protocol as Terraform 1.14 drives them: the identities they
// return are equal, after the import (an import by ID leaves it to the
// read) and after the read. (The account comes from the endpoint's
// GetCallerIdentity, the region from the provider configuration.)
func TestIdentityMatchesHashiCorp(t *testing.T) {
	if testing.Short() {
		t.Skip("launches both awscc plugins")
	}
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	testendpoint.CreateLogGroup(t, e.URL, "app")

	ref := startPlugin(t, hashicorpAWSCC(t))
	cairn := startPlugin(t, buildPlugin(t), "CAIRN_PLUGIN_CACHE="+t.TempDir(), "CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup")
	configureFor(t, ref, e.URL)
	configureFor(t, cairn, e.URL)
	wantImported, want := importAndRead(t, ref, "app")
	imported, got := importAndRead(t, cairn, "app")
	if !imported.RawEquals(wantImported) {
		t.Errorf("identity after import: HashiCorp %#v, Cairn %#v", wantImported, imported)
	}
	if !got.RawEquals(want) {
		t.Errorf("identity after read: HashiCorp %#v, Cairn %#v", want, got)
	}
	for name, p := range map[string]*plugin{"by-hashicorp": ref, "by-cairn": cairn} {
		if id := createWith(t, p, name); id.GetAttr("log_group_name").AsString() != name ||
			!id.GetAttr("account_id").RawEquals(want.GetAttr("account_id")) || !id.GetAttr("region").RawEquals(want.GetAttr("region")) {
			t.Errorf("identity after create %s: %#v", name, id)
		}
	}
	wantListed := listed(t, ref)
	if len(wantListed) != 3 {
		t.Errorf("HashiCorp's awscc listed %v, want the 3 log groups", wantListed)
	}
	if diff := cmp.Diff(wantListed, listed(t, cairn)); diff != "" {
		t.Errorf("ListResource (-HashiCorp +Cairn):\n%s", diff)
	}
	if w, g := upgradeIdentity(t, ref), upgradeIdentity(t, cairn); w != g || g != "Unexpected Identity Upgrade Request" {
		t.Errorf("UpgradeResourceIdentity of a current identity: HashiCorp %q, Cairn %q", w, g)
	}
	for name, p := range map[string]*plugin{"HashiCorp": ref, "Cairn": cairn} {
		failOnErrors(t, name+" ValidateListResourceConfig", p.call(t, "ValidateListResourceConfig", func(req *dynamicpb.Message) {
			set(req, "type_name", "awscc_logs_log_group")
			cfg := child(req, "config")
			set(cfg, "msgpack", emptyObject(t))
			set(req, "config", cfg)
		}))
	}
	wantMap := map[string]string{"account_id": "123456789012", "log_group_name": "app", "region": "eu-west-1"}
	var gotMap map[string]string
	if err := json.Unmarshal([]byte(jsonOf(t, got)), &gotMap); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantMap, gotMap); diff != "" {
		t.Errorf("identity (-want +got):\n%s", diff)
	}
}

func jsonOf(tb testing.TB, v cty.Value) string {
	tb.Helper()
	var m = map[string]string{}
	for k, e := range v.AsValueMap() {
		m[k] = e.AsString()
	}
	data, err := json.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

// createWith creates a log group called name through a plugin, planning
// then applying as Terraform does, and returns the identity of the
// answer.
func createWith(tb testing.TB, p *plugin, name string) cty.Value {
	tb.Helper()
	var schema struct {
		ResourceSchemas map[string]struct {
			Block blockJSON `json:"block"`
		} `json:"resourceSchemas"`
	}
	asJSON(tb, p.call(tb, "GetProviderSchema", nil), &schema)
	ty := schema.ResourceSchemas["awscc_logs_log_group"].Block.impliedType(tb)
	config := configValue(tb, ty, map[string]cty.Value{"log_group_name": cty.StringVal(name)})
	null, err := ctymsgpack.Marshal(cty.NullVal(ty), ty)
	if err != nil {
		tb.Fatal(err)
	}
	dv := func(req *dynamicpb.Message, field string, data []byte) {
		v := child(req, field)
		set(v, "msgpack", data)
		set(req, field, v)
	}
	plan := p.call(tb, "PlanResourceChange", func(req *dynamicpb.Message) {
		set(req, "type_name", "awscc_logs_log_group")
		dv(req, "prior_state", null)
		dv(req, "proposed_new_state", config)
		dv(req, "config", config)
	})
	failOnErrors(tb, "PlanResourceChange", plan)
	planned := plan.Get(plan.Descriptor().Fields().ByName("planned_state")).Message().Interface().(*dynamicpb.Message)
	apply := p.call(tb, "ApplyResourceChange", func(req *dynamicpb.Message) {
		set(req, "type_name", "awscc_logs_log_group")
		dv(req, "prior_state", null)
		set(req, "planned_state", planned)
		dv(req, "config", config)
		if pp := plan.Get(plan.Descriptor().Fields().ByName("planned_private")).Bytes(); len(pp) > 0 {
			set(req, "planned_private", pp)
		}
	})
	failOnErrors(tb, "ApplyResourceChange", apply)
	return identityOf(tb, apply, "new_identity")
}

// listed lists the log groups through a plugin (ListResource, a server
// stream) and returns each result's display name and identity.
func listed(tb testing.TB, p *plugin) map[string]string {
	tb.Helper()
	empty := emptyObject(tb)
	events := p.stream(tb, "ListResource", func(req *dynamicpb.Message) {
		set(req, "type_name", "awscc_logs_log_group")
		cfg := child(req, "config")
		set(cfg, "msgpack", empty)
		set(req, "config", cfg)
	})
	out := map[string]string{}
	for _, ev := range events {
		failOnErrors(tb, "ListResource", ev)
		var e struct {
			DisplayName string `json:"displayName"`
		}
		asJSON(tb, ev, &e)
		out[e.DisplayName] = jsonOf(tb, identityOf(tb, ev, "identity"))
	}
	return out
}

// emptyObject is the msgpack of an empty object: a list block's
// configuration.
func emptyObject(tb testing.TB) []byte {
	tb.Helper()
	data, err := ctymsgpack.Marshal(cty.EmptyObjectVal, cty.EmptyObject)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// upgradeIdentity asks a plugin to upgrade a stored identity of the log
// group "app" written under version 0, the current one, and returns the
// error's summary: the framework refuses to upgrade an identity that is
// current, as Terraform never asks it to.
func upgradeIdentity(tb testing.TB, p *plugin) string {
	tb.Helper()
	resp := p.call(tb, "UpgradeResourceIdentity", func(req *dynamicpb.Message) {
		set(req, "type_name", "awscc_logs_log_group")
		set(req, "version", int64(0))
		raw := child(req, "raw_identity")
		set(raw, "json", []byte(`{"account_id":"123456789012","log_group_name":"app","region":"eu-west-1"}`))
		set(req, "raw_identity", raw)
	})
	var a struct {
		Diagnostics []struct {
			Summary string `json:"summary"`
		} `json:"diagnostics"`
	}
	asJSON(tb, resp, &a)
	if len(a.Diagnostics) != 1 {
		tb.Fatalf("UpgradeResourceIdentity: %d diagnostics", len(a.Diagnostics))
	}
	return a.Diagnostics[0].Summary
}
