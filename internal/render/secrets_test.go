package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// The run-wide rule: terraform_data.a holds a secret (its input, from a
// sensitive variable) and terraform_data.b an unmarked copy of it (its
// input is a.output, which Terraform does not mark), so b holds no mark of
// its own. Nothing people read may show the secret.
const runSecret = "app-hunter2xyz"

var (
	tdAddr = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "a"}.Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
	tdCopy = addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "b"}.Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey)
	tdProv = addrs.AbsProviderConfig{Provider: builtin.TerraformProviderAddr}
)

func tdValue(id string, input cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": str(id), "input": input, "output": marks.Strip(input), "triggers_replace": cty.NullVal(cty.DynamicPseudoType)})
}

func secretState(t *testing.T) *states.State {
	t.Helper()
	schema, _ := builtinSchemas().ResourceTypeSchema(builtin.TerraformProviderAddr, addrs.ManagedResourceMode, "terraform_data")
	s := states.NewState()
	for _, o := range []struct {
		addr addrs.AbsResourceInstance
		v    cty.Value
	}{
		{tdAddr, tdValue("a-id", str(runSecret).Mark(marks.Sensitive))},
		{tdCopy, tdValue("b-id", str(runSecret+"-v1"))},
	} {
		src, err := states.EncodeObject(schema, &states.Object{Value: o.v, Status: states.ObjectReady}, 0)
		if err != nil {
			t.Fatal(err)
		}
		s.SetResourceInstanceCurrent(o.addr, src, tdProv)
	}
	s.Outputs["copy"] = &states.OutputValue{Value: str(runSecret + "-v1")}
	s.Outputs["plain"] = &states.OutputValue{Value: str("visible")}
	return s
}

func checkNoSecret(t *testing.T, what, text string) {
	t.Helper()
	if strings.Contains(text, "hunter2xyz") {
		t.Errorf("%s shows the secret:\n%s", what, text)
	}
	if !strings.Contains(text, "sensitive") {
		t.Errorf("%s shows nothing as sensitive:\n%s", what, text)
	}
}

func TestRunSecretsPlan(t *testing.T) {
	p := &plans.Plan{
		PriorState: secretState(t),
		Changes: []*plans.ResourceInstanceChange{
			{Addr: tdAddr, Provider: tdProv, Action: plans.NoOp, Before: tdValue("a-id", str(runSecret).Mark(marks.Sensitive)), After: tdValue("a-id", str(runSecret).Mark(marks.Sensitive))},
			{Addr: tdCopy, Provider: tdProv, Action: plans.Update, Before: tdValue("b-id", str(runSecret+"-v1")), After: tdValue("b-id", str(runSecret+"-v2"))},
		},
		Outputs: []*plans.OutputChange{{Name: "copy", Action: plans.Create, Before: cty.NullVal(cty.String), After: str(runSecret + "-v2")}},
	}
	var b bytes.Buffer
	if err := Plan(&b, p, builtinSchemas(), Options{}); err != nil {
		t.Fatal(err)
	}
	checkNoSecret(t, "the plan", b.String())
	if !strings.Contains(b.String(), "~ input  = (sensitive value)") || !strings.Contains(b.String(), "+ copy = (sensitive value)") {
		t.Errorf("the copy's input and the output are not shown as sensitive:\n%s", b.String())
	}
}

func TestRunSecretsState(t *testing.T) {
	s := secretState(t)
	schemas := builtinSchemas()
	var b bytes.Buffer
	if err := State(&b, s, schemas, Options{}); err != nil {
		t.Fatal(err)
	}
	checkNoSecret(t, "show", b.String())
	if !strings.Contains(b.String(), `plain = "visible"`) {
		t.Errorf("show hides an output that reveals nothing:\n%s", b.String())
	}

	schema, _ := schemas.ResourceTypeSchema(builtin.TerraformProviderAddr, addrs.ManagedResourceMode, "terraform_data")
	obj, err := s.ResourceInstance(tdCopy).Current.Decode(schema.ImpliedType())
	if err != nil {
		t.Fatal(err)
	}
	known := marks.NewKnown()
	known.AddSecrets(StateSecrets(s, schemas))
	b.Reset()
	if err := StateShow(&b, tdCopy, obj, schema, Options{Secrets: known}); err != nil {
		t.Fatal(err)
	}
	checkNoSecret(t, "state show", b.String())
	if !strings.Contains(b.String(), `id     = "b-id"`) {
		t.Errorf("state show hides what reveals nothing:\n%s", b.String())
	}

	b.Reset()
	if ds := Output(&b, "", s.Outputs, OutputHuman, known.Secrets()); len(ds) > 0 {
		t.Fatal(ds)
	}
	if got, want := b.String(), "copy = <sensitive>\nplain = \"visible\"\n"; got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
	b.Reset()
	if ds := Output(&b, "copy", s.Outputs, OutputRaw, known.Secrets()); len(ds) > 0 || b.String() != runSecret+"-v1" {
		t.Errorf("output -raw copy = %q, %v: a value asked for by name is for scripts", b.String(), ds)
	}
	msg, err := AppliedOutputsUIMessage(s.Outputs, known.Secrets())
	if err != nil {
		t.Fatal(err)
	}
	checkNoSecret(t, "the outputs message", strings.Join(encodeUI(t, msg), "\n"))
	if got := ConsoleValue(obj.Value, known.Secrets()); strings.Contains(got, "hunter2xyz") {
		t.Errorf("console shows the secret:\n%s", got)
	}
}

func TestRunSecretsMessages(t *testing.T) {
	known := marks.NewKnown()
	known.Add(str(runSecret).Mark(marks.Sensitive))
	copyVal := tdValue(runSecret+"-v2", str("x"))
	if k, v := ObjectID(copyVal, known); k != "" {
		t.Errorf("ObjectID = %s=%s: an id that reveals a run's secret is shown", k, v)
	}
	if k, v := ObjectID(copyVal, nil); k != "id" {
		t.Errorf("without the run's secrets ObjectID = %s=%s", k, v)
	}
	if msg := strings.Join(encodeUI(t, UIApplyComplete(tdCopy, plans.Create, copyVal, time.Second, known)), "\n"); strings.Contains(msg, "hunter2xyz") {
		t.Errorf("apply_complete shows the secret:\n%s", msg)
	}

	d := diags.Diagnostic{Severity: diags.Error, Summary: "Resource postcondition failed", Detail: "output was " + runSecret + "-v2",
		Values: []diags.ExprValue{{Traversal: "self.output", Statement: `is "` + runSecret + `-v2"`}, {Traversal: "self.id", Statement: `is "b-id"`}}}
	var b bytes.Buffer
	if err := Diagnostics(&b, diags.Diagnostics{d}, nil, Options{Secrets: known}); err != nil {
		t.Fatal(err)
	}
	checkNoSecret(t, "an error", b.String())
	if got := redactDiagnostic(d, known).Values; len(got) != 1 || got[0].Traversal != "self.id" {
		t.Errorf("values described: %v, want only self.id's", got)
	}
	checkNoSecret(t, "a diagnostic message", strings.Join(encodeUI(t, UIDiagnosticMessage(d, nil, known)), "\n"))
}
