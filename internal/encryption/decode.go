package encryption

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Decode decodes the encryption configuration: body is the encryption
// block's body (nil when there is none) with declRange its header, and
// env is TF_ENCRYPTION's value ("" when unset), merged over the block.
// ctx provides what arguments such as passphrase may refer to (var and
// local, evaluated statically); it may be nil, allowing literals only.
//
// It returns nil and no diagnostics when neither source configures
// anything. Diagnostics carry the narrowest source range available, and
// never a passphrase.
func Decode(body hcl.Body, declRange hcl.Range, env string, ctx *hcl.EvalContext) (*Config, hcl.Diagnostics) {
	raw, diags := loadRaw(body, declRange, env)
	if raw == nil || diags.HasErrors() {
		return nil, diags
	}
	cfg, ds := resolve(raw, &scope{ctx: ctx})
	diags = append(diags, unencryptedWarnings(raw)...)
	return cfg, append(diags, ds...)
}

// unencryptedWarnings are OpenTofu's reminder, one per unencrypted method
// declared (used or not), at the encryption block: such a method exists to
// migrate to or from encryption, and should be removed once that is done.
// Validate does not give it, as OpenTofu's validate does not.
func unencryptedWarnings(raw *rawConfig) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, rb := range raw.methods {
		if rb.typ == MethodUnencrypted {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Unencrypted method configured",
				Detail:   "Method unencrypted is present in configuration. This is a security risk and should only be enabled during migrations.",
				Subject:  raw.declRange.Ptr(),
			})
		}
	}
	return diags
}

// Validate checks an encryption configuration as Decode does, for
// "validate": arguments whose values are not known yet (a passphrase from
// a variable nobody has set) are taken on trust, while everything else
// (structure, references, literal settings) is checked. ctx is as for
// Decode, usually with unknown variables.
func Validate(body hcl.Body, declRange hcl.Range, env string, ctx *hcl.EvalContext) hcl.Diagnostics {
	raw, diags := loadRaw(body, declRange, env)
	if raw == nil || diags.HasErrors() {
		return diags
	}
	_, ds := resolve(raw, &scope{ctx: ctx, lenient: true})
	return append(diags, ds...)
}

// loadRaw reads the block and TF_ENCRYPTION and merges them; nil when
// neither configures anything.
func loadRaw(body hcl.Body, declRange hcl.Range, env string) (*rawConfig, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var base, override *rawConfig
	if body != nil {
		var ds hcl.Diagnostics
		base, ds = decodeRaw(body, declRange)
		diags = append(diags, ds...)
	}
	if env != "" {
		var ds hcl.Diagnostics
		override, ds = parseEnv(env)
		diags = append(diags, ds...)
	}
	return merge(base, override), diags
}

// scope is what arguments are evaluated in. lenient accepts unknown
// values without checking them (Validate).
type scope struct {
	ctx     *hcl.EvalContext
	lenient bool
}

// resolve turns a merged raw configuration into a Config: providers
// checked, references followed.
func resolve(raw *rawConfig, sc *scope) (*Config, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	cfg := &Config{DeclRange: raw.declRange}
	providers := map[string]*KeyProvider{}
	for _, rb := range raw.keyProviders {
		kp, ds := decodeKeyProvider(rb, sc)
		diags = append(diags, ds...)
		if kp == nil {
			// Declared but invalid: references to it are not reported
			// again as references to nothing.
			if _, seen := providers[rb.addr("key_provider")]; !seen {
				providers[rb.addr("key_provider")] = nil
			}
			continue
		}
		if prev, dup := providers[kp.Addr()]; dup && prev != nil {
			diags = append(diags, duplicateDecl("key provider", kp.Addr(), rb.declRange))
			continue
		}
		providers[kp.Addr()] = kp
		cfg.KeyProviders = append(cfg.KeyProviders, kp)
	}
	methods := map[string]*Method{}
	for _, rb := range raw.methods {
		m, ds := decodeMethod(rb, providers, sc)
		diags = append(diags, ds...)
		if m == nil {
			if _, seen := methods[rb.addr("method")]; !seen {
				methods[rb.addr("method")] = nil
			}
			continue
		}
		if prev, dup := methods[m.Addr()]; dup && prev != nil {
			diags = append(diags, duplicateDecl("method", m.Addr(), rb.declRange))
			continue
		}
		methods[m.Addr()] = m
		cfg.Methods = append(cfg.Methods, m)
	}
	var ds hcl.Diagnostics
	cfg.State, ds = resolveTarget(raw.state, "state", methods, sc)
	diags = append(diags, ds...)
	cfg.Plan, ds = resolveTarget(raw.plan, "plan", methods, sc)
	diags = append(diags, ds...)
	if raw.remote != nil {
		cfg.RemoteStateDefault, ds = resolveTarget(raw.remote.def, "remote_state_data_sources.default", methods, sc)
		diags = append(diags, ds...)
		cfg.RemoteStateSources = map[string]*TargetConfig{}
		for _, n := range raw.remote.order {
			t := raw.remote.named[n]
			cfg.RemoteStateSources[n], ds = resolveTarget(t, "remote_state_data_source."+n, methods, sc)
			diags = append(diags, ds...)
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Per-data-source remote state encryption is not supported",
				Detail: fmt.Sprintf("Cairn decrypts every terraform_remote_state with the default block of "+
					"remote_state_data_sources; the remote_state_data_source %q block is checked but not used.", n),
				Subject: t.declRange.Ptr(),
			})
		}
	}
	return cfg, diags
}

func duplicateDecl(what, addr string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Duplicate " + what,
		Detail:   fmt.Sprintf("%s is declared twice; give each %s a different name.", addr, what),
		Subject:  rng.Ptr(),
	}
}

// resolveTarget follows a target's method references through its
// fallbacks. An enforced target may not name the unencrypted method
// anywhere in its chain.
func resolveTarget(raw *rawTarget, name string, methods map[string]*Method, sc *scope) (*TargetConfig, hcl.Diagnostics) {
	if raw == nil {
		return nil, nil
	}
	var diags hcl.Diagnostics
	t := &TargetConfig{}
	if raw.enforced != nil {
		v, ok, ds := boolArg(raw.enforced, sc)
		diags = append(diags, ds...)
		t.Enforced = ok && v
	}
	if raw.method == nil {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing encryption method",
			Detail:   fmt.Sprintf("The %s block needs a method argument, such as method = method.aes_gcm.NAME.", name),
			Subject:  raw.declRange.Ptr(),
		})
	}
	t.MethodRange = raw.method.Range()
	m, ds := lookupRef(raw.method, "method", methods)
	diags = append(diags, ds...)
	if m == nil {
		// An invalid method was reported where it is declared.
		return nil, diags
	}
	t.Method = m
	if raw.fallback != nil {
		fb, ds := resolveTarget(raw.fallback, name+".fallback", methods, sc)
		diags = append(diags, ds...)
		t.Fallback = fb
	}
	if t.Enforced {
		diags = append(diags, checkEnforced(t, name)...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return t, diags
}

// checkEnforced refuses the unencrypted method in an enforced chain:
// enforced means no plaintext is ever written or accepted.
func checkEnforced(t *TargetConfig, name string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for c := t; c != nil; c = c.Fallback {
		if c.Method != nil && c.Method.Type == MethodUnencrypted {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unencrypted method is forbidden",
				Detail: fmt.Sprintf("The %s block sets enforced = true, so it may not use %s, as method or as fallback. "+
					"Remove enforced while migrating from unencrypted data.", name, c.Method.Addr()),
				Subject: c.MethodRange.Ptr(),
			})
		}
	}
	return diags
}

// lookupRef resolves a reference such as method.aes_gcm.NAME or
// key_provider.pbkdf2.NAME (root is "method" or "key_provider") among the
// declared ones. One declared but invalid (a nil entry, its problem
// already reported) resolves to nil without a diagnostic.
func lookupRef[T any](expr hcl.Expression, root string, declared map[string]*T) (*T, hcl.Diagnostics) {
	trav, diags := referenceOf(expr)
	if diags.HasErrors() || len(trav) != 3 || trav.RootName() != root {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + root + " reference",
			Detail:   fmt.Sprintf("Expected a reference of the form %s.TYPE.NAME.", root),
			Subject:  expr.Range().Ptr(),
		}}
	}
	typ, ok1 := trav[1].(hcl.TraverseAttr)
	name, ok2 := trav[2].(hcl.TraverseAttr)
	if !ok1 || !ok2 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + root + " reference",
			Detail:   fmt.Sprintf("Expected a reference of the form %s.TYPE.NAME.", root),
			Subject:  expr.Range().Ptr(),
		}}
	}
	addr := root + "." + typ.Name + "." + name.Name
	v, ok := declared[addr]
	if ok && v == nil {
		return nil, nil
	}
	if !ok {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reference to undeclared " + humanRoot(root),
			Detail:   fmt.Sprintf("There is no %s %q %q block in the encryption block.", root, typ.Name, name.Name),
			Subject:  expr.Range().Ptr(),
		}}
	}
	return v, nil
}

func humanRoot(root string) string {
	if root == "key_provider" {
		return "key provider"
	}
	return "encryption method"
}

// referenceOf returns the single reference expr makes. As in OpenTofu, an
// interpolation holding one reference ("${method.aes_gcm.x}", the usual
// form in JSON) counts as that reference.
func referenceOf(expr hcl.Expression) (hcl.Traversal, hcl.Diagnostics) {
	if vars := expr.Variables(); len(vars) == 1 {
		return vars[0], nil
	}
	return hcl.AbsTraversalForExpr(expr)
}
