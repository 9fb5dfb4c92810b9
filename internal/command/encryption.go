package command

import (
	"errors"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// runEncryption is the run's state and plan encryption, decoded once per
// command so that each target derives its key once however many times
// state is written.
type runEncryption struct {
	state, plan *encryption.Target
	// remote decrypts the states terraform_remote_state reads.
	remote *encryption.Target
	// warnings are decoding's warnings, until a command shows them
	// (encryptionWarnings).
	warnings diags.Diagnostics
}

// encryptionTargets decodes the root module's encryption block merged with
// TF_ENCRYPTION (cfg may be nil: TF_ENCRYPTION alone then). Passphrases
// may refer to input variables (var.NAME), with values from TF_VAR_,
// variable files, the -var options the command was given, or defaults.
// Problems are diagnostics with the block's source ranges.
func (m *Meta) encryptionTargets(cfg *configs.Module) (*runEncryption, diags.Diagnostics) {
	if m.enc != nil {
		return m.enc, nil
	}
	var body hcl.Body
	var rng hcl.Range
	if cfg != nil && cfg.Encryption != nil {
		body, rng = cfg.Encryption.Body, cfg.Encryption.DeclRange
	}
	env := m.Getenv(encryption.EnvVariable)
	var ds diags.Diagnostics
	var ctx *hcl.EvalContext
	if body != nil || env != "" {
		ctx, ds = m.encryptionEvalContext(cfg)
		if ds.HasErrors() {
			return nil, ds
		}
	}
	c, hds := encryption.Decode(body, rng, env, ctx)
	ds = ds.Append(hds)
	if ds.HasErrors() {
		return nil, ds
	}
	m.enc = &runEncryption{state: c.StateTarget(), plan: c.PlanTarget(), remote: c.RemoteStateTarget(), warnings: ds}
	return m.enc, nil
}

// encryptionWarnings shows the warnings of decoding the encryption
// configuration (OpenTofu's "Unencrypted method configured"), once, for
// the commands OpenTofu 1.12 shows them on: init, plan, refresh, import,
// untaint and console. The others (apply, state, output, show...) keep
// quiet, as OpenTofu's do, so that output meant for other programs stays
// clean. Nothing when the configuration has not been decoded: its errors
// are reported where it is.
func (m *Meta) encryptionWarnings() diags.Diagnostics {
	if m.enc == nil {
		return nil
	}
	w := m.enc.warnings
	m.enc.warnings = nil
	return w
}

// encryptionEvalContext offers the root module's variables and static
// locals to the encryption block, as OpenTofu's static evaluation does. A
// variable without a value (unset or null) is marked encryption.NoValue,
// so that the block names it wherever it needs it; problems with a value
// are left to the operation, which reports them with its own context. The
// diagnostics are problems reading the variables' sources (-var,
// -var-file, the variable files), which OpenTofu reports on every command.
func (m *Meta) encryptionEvalContext(cfg *configs.Module) (*hcl.EvalContext, diags.Diagnostics) {
	vars := map[string]cty.Value{}
	var ds diags.Diagnostics
	if cfg != nil && len(cfg.Variables) > 0 {
		var raw map[string]eval.RawVariable
		raw, ds = m.gatherVariables(m.varFlags)
		vals, _ := eval.FinalizeVariablesAllowUnset(cfg, raw, m.funcTable(false))
		for name := range cfg.Variables {
			v, ok := vals[name]
			if !ok || v == cty.NilVal {
				v = cty.DynamicVal
			}
			if !v.IsKnown() || v.IsNull() {
				v = v.Mark(encryption.NoValue{Variable: name})
			}
			vars[name] = v
		}
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)},
		Functions: m.funcTable(true),
	}
	if cfg != nil {
		ctx.Variables["local"] = staticLocals(cfg.Locals, ctx)
	}
	return ctx, ds
}

// staticLocals evaluates the locals that depend only on variables,
// literals, pure functions and other such locals, in rounds until none
// more can be; the others (those reading resources, data sources or
// anything known only while planning) are unknown. A static local may be
// unknown too, when a variable it reads has no value: it keeps that
// variable's mark, so the block can name the variable.
func staticLocals(locals map[string]*configs.Local, base *hcl.EvalContext) cty.Value {
	known := map[string]cty.Value{}
	for progress := true; progress; {
		progress = false
		ctx := base.NewChild()
		ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(known)}
		for name, l := range locals {
			if _, done := known[name]; done || !staticallyKnown(l.Expr, known) {
				continue
			}
			if v, ds := l.Expr.Value(ctx); !ds.HasErrors() {
				known[name] = v
				progress = true
			}
		}
	}
	out := make(map[string]cty.Value, len(locals))
	for name := range locals {
		out[name] = cty.DynamicVal
		if v, ok := known[name]; ok {
			out[name] = v
		}
	}
	return cty.ObjectVal(out)
}

// staticallyKnown reports whether expr refers only to variables and to
// locals already evaluated.
func staticallyKnown(expr hcl.Expression, known map[string]cty.Value) bool {
	for _, t := range expr.Variables() {
		switch t.RootName() {
		case "var":
		case "local":
			if len(t) < 2 {
				return false
			}
			step, isAttr := t[1].(hcl.TraverseAttr)
			if !isAttr {
				return false
			}
			if _, have := known[step.Name]; !have {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// encryptionDiag turns a decryption failure into a diagnostic with the
// target's own summary and detail, and what was being read (the state
// file, its journal) when the error says; other errors keep fallback's
// summary.
func encryptionDiag(err error, fallback string) (diags.Diagnostic, bool) {
	var e *encryption.Error
	if !errors.As(err, &e) {
		return diags.Errorf(fallback, "%s", err), false
	}
	where := strings.TrimSuffix(strings.TrimSuffix(err.Error(), e.Error()), ": ")
	if where == "" {
		return diags.Errorf(e.Summary, "%s", e.Detail), true
	}
	return diags.Errorf(e.Summary, "%s\n\n(While %s.)", e.Detail, where), true
}

// remoteStateEncryption is what terraform_remote_state decrypts with,
// decoded on first use (once: data sources are read concurrently).
func (m *Meta) remoteStateEncryption(cfg *configs.Module) func() (statemgr.Encryption, error) {
	return sync.OnceValues(func() (statemgr.Encryption, error) {
		enc, ds := m.encryptionTargets(cfg)
		if ds.HasErrors() {
			return nil, ds.Err()
		}
		return enc.remote, nil
	})
}

// validateEncryption checks the encryption block (with TF_ENCRYPTION) for
// "validate", which has no variable values: variables are unknown, and
// arguments depending on them are taken on trust.
func (m *Meta) validateEncryption(cfg *configs.Module) diags.Diagnostics {
	env := m.Getenv(encryption.EnvVariable)
	if cfg.Encryption == nil && env == "" {
		return nil
	}
	vars := map[string]cty.Value{}
	for name := range cfg.Variables {
		vars[name] = cty.DynamicVal
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(vars)}, Functions: m.funcTable(true)}
	ctx.Variables["local"] = staticLocals(cfg.Locals, ctx)
	var body hcl.Body
	var rng hcl.Range
	if cfg.Encryption != nil {
		body, rng = cfg.Encryption.Body, cfg.Encryption.DeclRange
	}
	return diags.Diagnostics{}.Append(encryption.Validate(body, rng, env, ctx))
}
