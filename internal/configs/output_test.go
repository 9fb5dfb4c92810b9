package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

type outputView struct {
	Value, Description string
	Sensitive          bool
	DependsOn          []string
	Preconditions      []string
}

func TestOutputsAndLocals(t *testing.T) {
	files := map[string]string{
		"main.tf": `
locals {
  a = 1
  b = local.a + 1
}
locals {
  c = "${var.x}-c"
}
output "ip" {
  value       = aws_instance.web.public_ip
  description = "The address."
  sensitive   = true
  depends_on  = [aws_instance.web]
  precondition {
    condition     = local.a > 0
    error_message = "a must be positive."
  }
}
output "plain" {
  value = local.c
}`,
		"more.tf.json": `{
  "locals": {"d": "${local.a}"},
  "output": {"j": {"value": "${local.d}", "sensitive": false}}
}`,
	}
	m := mustLoad(t, files)

	gotOutputs := map[string]outputView{}
	for name, o := range m.Outputs {
		v := outputView{Value: exprText(m, o.Expr), Description: o.Description, Sensitive: o.Sensitive,
			DependsOn: traversalStrings(o.DependsOn)}
		for _, cr := range o.Preconditions {
			v.Preconditions = append(v.Preconditions, exprText(m, cr.Condition))
		}
		gotOutputs[name] = v
	}
	wantOutputs := map[string]outputView{
		"ip": {Value: "aws_instance.web.public_ip", Description: "The address.", Sensitive: true,
			DependsOn: []string{"aws_instance.web"}, Preconditions: []string{"local.a > 0"}},
		"plain": {Value: "local.c"},
		"j":     {Value: `"${local.d}"`},
	}
	if diff := cmp.Diff(wantOutputs, gotOutputs); diff != "" {
		t.Errorf("outputs -want +got:\n%s", diff)
	}

	gotLocals := map[string]string{}
	for name, l := range m.Locals {
		gotLocals[name] = exprText(m, l.Expr)
	}
	wantLocals := map[string]string{"a": "1", "b": "local.a + 1", "c": `"${var.x}-c"`, "d": `"${local.a}"`}
	if diff := cmp.Diff(wantLocals, gotLocals); diff != "" {
		t.Errorf("locals -want +got:\n%s", diff)
	}
}
