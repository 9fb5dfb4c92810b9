package testfiles

import (
	"context"
	"maps"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/providers"
)

// loadedModule is a module under test as this file loaded it: its own
// provider blocks (runs put the file's in their place, run by run), and
// a mock per mock_provider block of the file whose provider it uses.
type loadedModule struct {
	mod   *modulerun.Module
	own   map[string]*configs.Provider
	mocks map[string]*mockProvider // by the mock_provider's name[.alias]
	// configSet and mapSig record the provider map the module's
	// configuration holds now (configureProviders).
	configSet bool
	mapSig    string
}

// configMock is the mock_provider serving one configuration of the
// module in a run.
type configMock struct {
	spec *MockProvider
	mock *mockProvider
}

// providerMap is, for a run, the file's provider configuration each
// configuration of the module gets (module name[.alias] to the file's):
// the run's providers argument, or, without one, every provider and
// mock_provider block of the file under its own name, as in Terraform.
func (fr *fileRun) providerMap(run *Run) map[string]ProviderRef {
	out := map[string]ProviderRef{}
	if run.Providers != nil {
		for _, m := range run.Providers {
			out[m.InModule.String()] = m.InFile
		}
		return out
	}
	for _, p := range fr.file.Providers {
		ref := ProviderRef{Name: p.Name, Alias: p.Alias}
		out[ref.String()] = ref
	}
	for _, mp := range fr.file.Mocks {
		ref := ProviderRef{Name: mp.Name, Alias: mp.Alias}
		out[ref.String()] = ref
	}
	return out
}

// configMocks lists the module's configurations a mock_provider serves
// in run, by the module's name[.alias].
func (fr *fileRun) configMocks(lm *loadedModule, run *Run) map[string]configMock {
	if len(lm.mocks) == 0 {
		return nil
	}
	out := map[string]configMock{}
	for inModule, inFile := range fr.providerMap(run) {
		for _, mp := range fr.file.Mocks {
			if (ProviderRef{Name: mp.Name, Alias: mp.Alias}) == inFile && lm.mocks[inFile.String()] != nil {
				out[inModule] = configMock{spec: mp, mock: lm.mocks[inFile.String()]}
			}
		}
	}
	return out
}

// configureProviders puts, for run, the file's provider blocks the run
// passes in the loaded module in place of its own of the same name and
// alias. The module is this file's own copy (loaded for it), so no
// other file sees them; the next run starts again from the module's own.
func (fr *fileRun) configureProviders(lm *loadedModule, run *Run) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	sig := mapSignature(fr.providerMap(run))
	if lm.configSet && lm.mapSig == sig {
		// Already so: a parallel group's runs of one module share it, and
		// one that plans must not see the map replaced under it.
		return
	}
	lm.configSet, lm.mapSig = true, sig
	cfg := lm.mod.Config()
	pcs := maps.Clone(lm.own)
	if pcs == nil {
		pcs = map[string]*configs.Provider{}
	}
	for inModule, inFile := range fr.providerMap(run) {
		for _, p := range fr.file.Providers {
			if (ProviderRef{Name: p.Name, Alias: p.Alias}) != inFile {
				continue
			}
			cp := *p
			ref := parseRefString(inModule)
			cp.Name, cp.Alias = ref.Name, ref.Alias
			cp.Source = cfg.ProviderForLocalName(ref.Name)
			pcs[configs.ProviderConfigKey(ref.Name, ref.Alias)] = &cp
		}
	}
	cfg.ProviderConfigs = pcs
}

// parseRefString reads back ProviderRef.String.
func parseRefString(s string) ProviderRef {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return ProviderRef{Name: s[:i], Alias: s[i+1:]}
		}
	}
	return ProviderRef{Name: s}
}

// mocked loads the module again with the real providers the file's
// mock_provider blocks name stood in for by lazy ones (a mocked
// configuration never reaches the real provider; the others do, when
// first used), and makes a mock of each with the real one's schema. A
// mock_provider for a provider the module does not use is left out.
func (fr *fileRun) mocked(ctx context.Context, real *modulerun.Module, src modulerun.Source, opts modulerun.Options) (*loadedModule, diags.Diagnostics) {
	schemas, ds := real.Schemas(ctx)
	if ds.HasErrors() {
		return nil, ds
	}
	reg := providers.Registry{}
	for addr, f := range opts.Providers {
		reg[addr] = f
	}
	cfg := real.Config()
	mocks := map[string]*mockProvider{}
	for i, mp := range fr.file.Mocks {
		addr := cfg.ProviderForLocalName(mp.Name)
		schema := schemas[addr]
		if schema == nil {
			continue
		}
		mocks[ProviderRef{Name: mp.Name, Alias: mp.Alias}.String()] = newMockProvider(mp, schema, uint64(i+1))
		factory, ok := real.ProviderFactory(addr)
		if !ok {
			continue
		}
		reg[addr] = func() (providers.Interface, error) { return &lazyProvider{factory: factory, schema: schema}, nil }
	}
	opts.Providers = reg
	m, lds := modulerun.Load(ctx, src, opts)
	ds = ds.Append(lds)
	if m == nil || lds.HasErrors() {
		return nil, ds
	}
	return &loadedModule{mod: m, mocks: mocks}, ds
}
