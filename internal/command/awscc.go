package command

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// awsccSchemasEnv names the environment variable of a directory of
// CloudFormation schemas laid over the built-in ones.
const awsccSchemasEnv = cfnsources.SchemasEnv

// awsccSources are the schema sources of a command that serves awscc on
// its own (provider serve, crd generate, controller): the built-in
// schemas, then CAIRN_AWSCC_SCHEMAS, then dirs, later ones winning.
func (m *Meta) awsccSources(dirs []string) cfnsources.Sources {
	return cfnsources.FromEnv(m.Getenv, m.absPath, dirs...)
}

// awsccProviders loads the awscc provider at most once per set of sources
// and types for the life of a Meta (one command run), and only when a
// provider instance is first needed. The zero value is ready to use.
type awsccProviders struct {
	mu    sync.Mutex
	byKey map[string]*awsccLoad
}

type awsccLoad struct {
	once sync.Once
	p    *awscc.Provider
	err  error
}

// load returns the provider over src's types that keep reports true for,
// loading it on the first call for that key.
func (l *awsccProviders) load(src cfnsources.Sources, keep func(string) bool, keepKey string) (*awscc.Provider, error) {
	key := src.Key() + "\x01" + keepKey
	l.mu.Lock()
	if l.byKey == nil {
		l.byKey = map[string]*awsccLoad{}
	}
	ld := l.byKey[key]
	if ld == nil {
		ld = &awsccLoad{}
		l.byKey[key] = ld
	}
	l.mu.Unlock()
	ld.once.Do(func() { ld.p, ld.err = awscc.Load(src, keep) })
	return ld.p, ld.err
}

// addAWSCC registers the built-in awscc provider. Its schemas are the ones
// built into cairn, laid over by the fetch cache, CAIRN_AWSCC_SCHEMAS and
// the provider block's schemas argument (a literal or an input variable).
// Which directories and which types are decided when the first provider
// instance starts: by then the command has read its variables and state.
// cfg may be nil (a command run without a configuration).
func (m *Meta) addAWSCC(reg providers.Registry, cfg *configs.Module) diags.Diagnostics {
	arg, ds := awsccSchemasArg(cfg)
	if ds.HasErrors() {
		return ds
	}
	env, eds := m.awsccSchemasFromEnv(cfg)
	ds = ds.Append(eds)
	if eds.HasErrors() {
		return ds
	}
	reg[awscc.Addr] = func() (providers.Interface, error) {
		src := cfnsources.Sources{CacheDir: m.cfnCacheDir()}
		if env != "" {
			src.Dirs = append(src.Dirs, env)
		}
		dir, err := m.resolveSchemasArg(cfg, arg)
		if err != nil {
			return nil, err
		}
		if dir != "" {
			src.Dirs = append(src.Dirs, dir)
		}
		keep, keepKey := m.awsccTypeFilter(cfg)
		p, err := m.awscc.load(src, keep, keepKey)
		if err != nil {
			return nil, err
		}
		return p.Factory()()
	}
	return ds
}

// schemasArg is the provider block's schemas argument: a literal
// directory, or the name of the input variable that holds it.
type schemasArg struct {
	dir, variable string
	rng           hcl.Range
}

// awsccSchemasArg reads the schemas argument of every provider block for
// awscc (whatever its local name or alias), statically: the schemas must
// be loaded before the provider's configuration can be evaluated, so the
// argument is a literal string or a reference to an input variable. A
// relative path is relative to the module directory. Blocks that name
// different directories are an error, because one provider serves them all.
func awsccSchemasArg(cfg *configs.Module) (schemasArg, diags.Diagnostics) {
	var out schemasArg
	if cfg == nil {
		return out, nil
	}
	var ds diags.Diagnostics
	for _, key := range slices.Sorted(maps.Keys(cfg.ProviderConfigs)) {
		pc := cfg.ProviderConfigs[key]
		if pc.Source != awscc.Addr || pc.Config == nil {
			continue
		}
		content, _, _ := pc.Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "schemas"}}})
		attr := content.Attributes["schemas"]
		if attr == nil {
			continue
		}
		a, d := parseSchemasArg(cfg, attr)
		if d != nil {
			ds = ds.Append(*d)
			continue
		}
		if out != (schemasArg{}) && (a.dir != out.dir || a.variable != out.variable) {
			ds = ds.Append(diags.At(attr.Expr.Range(), "Conflicting schemas arguments",
				fmt.Sprintf("This provider block's schemas differs from the one at %s. One awscc provider serves every configuration of it, so all blocks must name the same directory (or only one of them).",
					out.rng)))
			continue
		}
		out = a
	}
	return out, ds
}

// parseSchemasArg checks one schemas argument: a literal directory that
// exists, or var.NAME of a declared variable.
func parseSchemasArg(cfg *configs.Module, attr *hcl.Attribute) (schemasArg, *diags.Diagnostic) {
	rng := attr.Expr.Range()
	if trav, tds := hcl.AbsTraversalForExpr(attr.Expr); !tds.HasErrors() && len(trav) == 2 && trav.RootName() == "var" {
		if step, ok := trav[1].(hcl.TraverseAttr); ok {
			if _, declared := cfg.Variables[step.Name]; !declared {
				d := diags.At(rng, "Reference to undeclared input variable",
					fmt.Sprintf("An input variable named %q has not been declared; the schemas argument can refer only to a declared input variable.", step.Name))
				return schemasArg{}, &d
			}
			return schemasArg{variable: step.Name, rng: rng}, nil
		}
	}
	s, ok := literalString(attr.Expr)
	if !ok {
		d := diags.At(rng, "Invalid schemas argument",
			"The awscc provider's schemas argument must be a literal string, such as schemas = \"./cfn-schemas\", or an input variable, such as schemas = var.cfn_schemas: Cairn loads the schemas "+
				"before it evaluates other expressions. A relative path is relative to the module directory.")
		return schemasArg{}, &d
	}
	dir := s
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cfg.SourceDir, dir)
	}
	if err := checkDir(dir); err != nil {
		d := diags.At(rng, "Invalid schemas directory",
			fmt.Sprintf("The awscc provider's schema directory %s cannot be used: %s. It must be a directory of CloudFormation resource schemas (*.json).", dir, err))
		return schemasArg{}, &d
	}
	return schemasArg{dir: dir, rng: rng}, nil
}

// resolveSchemasArg returns the directory of a schemas argument, reading
// the variable it names from the run's variable values. A variable with no
// known value (validate reads no variables) adds no directory.
func (m *Meta) resolveSchemasArg(cfg *configs.Module, a schemasArg) (string, error) {
	if a.variable == "" {
		return a.dir, nil
	}
	vals, _ := m.finalVariables(cfg)
	v, ok := vals[a.variable]
	if !ok || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", nil
	}
	v, _ = v.Unmark()
	dir := v.AsString()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cfg.SourceDir, dir)
	}
	if err := checkDir(dir); err != nil {
		return "", fmt.Errorf("the awscc provider's schema directory %s (from var.%s, %s) cannot be used: %s; it must be a directory of CloudFormation resource schemas (*.json)", dir, a.variable, a.rng, err)
	}
	return dir, nil
}

// awsccSchemasFromEnv reads CAIRN_AWSCC_SCHEMAS (relative to the working
// directory). A directory that cannot be used is an error when the
// configuration uses awscc and ignored otherwise.
func (m *Meta) awsccSchemasFromEnv(cfg *configs.Module) (string, diags.Diagnostics) {
	dir := m.Getenv(awsccSchemasEnv)
	if dir == "" {
		return "", nil
	}
	dir = m.absPath(dir)
	if err := checkDir(dir); err != nil {
		if use, _ := usesAWSCC(cfg); !use {
			// Nothing needs the provider; a stale variable should not stop
			// a command that does not use it.
			return "", nil
		}
		return "", diags.Diagnostics{diags.Errorf("Invalid "+awsccSchemasEnv,
			"%s names %s, which cannot be used: %s. It must be a directory of CloudFormation resource schemas (*.json).", awsccSchemasEnv, dir, err)}
	}
	return dir, nil
}

// awsccTypeFilter decides which CloudFormation types the provider loads:
// those whose resource or data source names the configuration or the
// state uses. Loading all 1,489 built-in types costs about a second, most
// configurations use a handful, and the engine asks a provider only for
// the types it meets. Every type is loaded when the run's state is not
// known (keep nil), or when the command serves the whole schema.
func (m *Meta) awsccTypeFilter(cfg *configs.Module) (keep func(string) bool, key string) {
	if m.allAWSCCTypes || m.stateTypes == nil || cfg == nil {
		return nil, "*"
	}
	used := map[string]bool{}
	cfg.Walk(func(mod *configs.Module) {
		for _, rs := range mod.ResourceMaps() {
			for _, r := range rs {
				if r.Provider == awscc.Addr {
					used[r.Type] = true
				}
			}
		}
	})
	for t := range m.stateTypes {
		used[t] = true
	}
	for _, t := range m.listTypes {
		used[t] = true
	}
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	return func(typeName string) bool {
		res, plural, err := cfnschema.TerraformNames(typeName)
		return err == nil && (used[res] || used[plural])
	}, strings.Join(names, ",")
}

// usesAWSCC reports whether the configuration needs the awscc provider (a
// required_providers entry, a provider block, or a resource whose provider
// it is), and the range of the first such place.
func usesAWSCC(cfg *configs.Module) (bool, *hcl.Range) {
	if cfg == nil {
		return false, nil
	}
	var found *hcl.Range
	cfg.Walk(func(mod *configs.Module) {
		if found == nil {
			if ok, rng := moduleUsesAWSCC(mod); ok {
				found = rng
			}
		}
	})
	return found != nil, found
}

// moduleUsesAWSCC is usesAWSCC for one module of the tree.
func moduleUsesAWSCC(cfg *configs.Module) (bool, *hcl.Range) {
	for _, name := range slices.Sorted(maps.Keys(cfg.RequiredProviders)) {
		if rp := cfg.RequiredProviders[name]; rp.Source == awscc.Addr {
			return true, rp.DeclRange.Ptr()
		}
	}
	for _, key := range slices.Sorted(maps.Keys(cfg.ProviderConfigs)) {
		if pc := cfg.ProviderConfigs[key]; pc.Source == awscc.Addr {
			return true, pc.DeclRange.Ptr()
		}
	}
	for _, m := range cfg.ResourceMaps() {
		for _, key := range slices.Sorted(maps.Keys(m)) {
			if r := m[key]; r.Provider == awscc.Addr {
				return true, r.DeclRange.Ptr()
			}
		}
	}
	return false, nil
}

// literalString evaluates expr with no variables or functions and returns
// it as a known string.
func literalString(expr hcl.Expression) (string, bool) {
	v, ds := expr.Value(nil)
	if ds.HasErrors() || v.IsNull() || !v.IsWhollyKnown() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// checkDir says why dir is not a readable directory, or returns nil.
func checkDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("it does not exist")
	case err != nil:
		return err
	case !st.IsDir():
		return errors.New("it is not a directory")
	}
	return nil
}
