package command

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/awscc"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// awsccSchemasEnv names the environment variable that gives the awscc
// provider's schema directory when the provider block does not.
const awsccSchemasEnv = "CAIRN_AWSCC_SCHEMAS"

// awsccProviders loads the awscc provider at most once per schema
// directory for the life of a Meta (one command run), and only when a
// provider instance is first needed: loading every AWS type takes about a
// second, which commands that never start the provider should not pay.
// The zero value is ready to use.
type awsccProviders struct {
	mu    sync.Mutex
	byDir map[string]*awsccLoad
}

type awsccLoad struct {
	once sync.Once
	p    *awscc.Provider
	err  error
}

// load returns the provider for dir, loading it on the first call.
func (l *awsccProviders) load(dir string) (*awscc.Provider, error) {
	l.mu.Lock()
	if l.byDir == nil {
		l.byDir = map[string]*awsccLoad{}
	}
	ld := l.byDir[dir]
	if ld == nil {
		ld = &awsccLoad{}
		l.byDir[dir] = ld
	}
	l.mu.Unlock()
	ld.once.Do(func() { ld.p, ld.err = awscc.New(dir) })
	return ld.p, ld.err
}

// factory returns a provider factory over dir that loads lazily.
func (l *awsccProviders) factory(dir string) providers.Factory {
	return func() (providers.Interface, error) {
		p, err := l.load(dir)
		if err != nil {
			return nil, err
		}
		return p.Factory()()
	}
}

// addAWSCC registers the built-in awscc provider in reg when its schema
// directory is known: from the provider block's schemas argument, else
// from CAIRN_AWSCC_SCHEMAS. When the configuration uses awscc and neither
// says where the schemas are, that is an error; Cairn never downloads
// providers or schemas. cfg may be nil (a command run without a
// configuration), and then only the environment counts.
func (m *Meta) addAWSCC(reg providers.Registry, cfg *configs.Module) diags.Diagnostics {
	dir, ds := awsccSchemasFromConfig(cfg)
	if ds.HasErrors() {
		return ds
	}
	if dir == "" {
		dir, ds = m.awsccSchemasFromEnv(cfg)
		if ds.HasErrors() || dir == "" {
			return ds
		}
	}
	reg[awscc.Addr] = m.awscc.factory(dir)
	return ds
}

// awsccSchemasFromConfig reads the schemas argument of every provider block
// for awscc (whatever its local name or alias), statically: the schemas
// must be loaded before the provider's configuration can be evaluated. A
// relative path is relative to the module directory. Blocks that name
// different directories are an error, because one provider serves them all.
func awsccSchemasFromConfig(cfg *configs.Module) (string, diags.Diagnostics) {
	if cfg == nil {
		return "", nil
	}
	var ds diags.Diagnostics
	var dir string
	var dirRange hcl.Range
	for _, key := range sortedKeys(cfg.ProviderConfigs) {
		pc := cfg.ProviderConfigs[key]
		if pc.Source != awscc.Addr || pc.Config == nil {
			continue
		}
		content, _, _ := pc.Config.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "schemas"}}})
		attr := content.Attributes["schemas"]
		if attr == nil {
			continue
		}
		s, ok := literalString(attr.Expr)
		if !ok {
			ds = ds.Append(diags.At(attr.Expr.Range(), "Invalid schemas argument",
				"The awscc provider's schemas argument must be a literal string, such as schemas = \"./cfn-schemas\": Cairn loads the schemas "+
					"before it evaluates any expression. A relative path is relative to the module directory."))
			continue
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(cfg.SourceDir, s)
		}
		if dir != "" && s != dir {
			ds = ds.Append(diags.At(attr.Expr.Range(), "Conflicting schemas arguments",
				fmt.Sprintf("This provider block names %s, but the block at %s names %s. One awscc provider serves every configuration of it, so all blocks must name the same directory (or only one of them).",
					s, dirRange, dir)))
			continue
		}
		if dir == "" {
			if err := checkDir(s); err != nil {
				ds = ds.Append(diags.At(attr.Expr.Range(), "Invalid schemas directory",
					fmt.Sprintf("The awscc provider's schema directory %s cannot be used: %s. It must be a directory of CloudFormation resource schemas (*.json).", s, err)))
				continue
			}
		}
		dir, dirRange = s, attr.Expr.Range()
	}
	return dir, ds
}

// awsccSchemasFromEnv reads CAIRN_AWSCC_SCHEMAS (relative to the working
// directory). With the variable unset, it is an error if cfg uses awscc.
func (m *Meta) awsccSchemasFromEnv(cfg *configs.Module) (string, diags.Diagnostics) {
	use, useRange := usesAWSCC(cfg)
	dir := m.Getenv(awsccSchemasEnv)
	if dir == "" {
		if !use {
			return "", nil
		}
		d := diags.Errorf("No CloudFormation schemas for the awscc provider",
			"The configuration uses %s, which Cairn serves from a directory of CloudFormation resource schemas and never downloads. "+
				"Say where the schemas are with schemas = \"DIR\" in the provider \"awscc\" block, or with the %s environment variable.",
			awscc.Addr.ForDisplay(), awsccSchemasEnv)
		d.Subject = useRange
		return "", diags.Diagnostics{d}
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(m.Dir, dir)
	}
	if err := checkDir(dir); err != nil {
		if !use {
			// Nothing needs the provider; a stale variable should not stop
			// a command that does not use it.
			return "", nil
		}
		return "", diags.Diagnostics{diags.Errorf("Invalid "+awsccSchemasEnv,
			"%s names %s, which cannot be used: %s. It must be a directory of CloudFormation resource schemas (*.json).", awsccSchemasEnv, dir, err)}
	}
	return dir, nil
}

// usesAWSCC reports whether the configuration needs the awscc provider (a
// required_providers entry, a provider block, or a resource whose provider
// it is), and the range of the first such place.
func usesAWSCC(cfg *configs.Module) (bool, *hcl.Range) {
	if cfg == nil {
		return false, nil
	}
	for _, name := range sortedKeys(cfg.RequiredProviders) {
		if rp := cfg.RequiredProviders[name]; rp.Source == awscc.Addr {
			return true, rp.DeclRange.Ptr()
		}
	}
	for _, key := range sortedKeys(cfg.ProviderConfigs) {
		if pc := cfg.ProviderConfigs[key]; pc.Source == awscc.Addr {
			return true, pc.DeclRange.Ptr()
		}
	}
	for _, m := range []map[string]*configs.Resource{cfg.ManagedResources, cfg.DataResources} {
		for _, key := range sortedKeys(m) {
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

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
