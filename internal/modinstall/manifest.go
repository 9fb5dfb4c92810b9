package modinstall

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/cairn-iac/cairn/internal/configs"
)

// ManifestFile is the manifest's name in the modules directory.
const ManifestFile = "modules.json"

// Record is one module of the manifest, in the field order and spelling
// of Terraform's .terraform/modules/modules.json.
type Record struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

// Manifest holds the installed modules by key (the call path joined with
// dots; "" for the root module).
type Manifest map[string]Record

type manifestFile struct {
	Modules []Record `json:"Modules"`
}

// ReadManifest reads modulesDir/modules.json; a missing file is an
// empty manifest.
func ReadManifest(modulesDir string) (Manifest, error) {
	b, err := os.ReadFile(filepath.Join(modulesDir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(modulesDir, ManifestFile), err)
	}
	return m, nil
}

// ParseManifest reads a manifest from its bytes (as Bytes writes them, or
// as Terraform and OpenTofu do).
func ParseManifest(b []byte) (Manifest, error) {
	var f manifestFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("not a module manifest: %w", err)
	}
	m := Manifest{}
	for _, r := range f.Modules {
		r.Dir = filepath.ToSlash(r.Dir)
		m[r.Key] = r
	}
	return m, nil
}

// Bytes is the manifest as Terraform writes it: records sorted by key,
// compact JSON, no trailing newline.
func (m Manifest) Bytes() []byte {
	var f manifestFile
	for _, k := range slices.Sorted(maps.Keys(m)) {
		f.Modules = append(f.Modules, m[k])
	}
	b, _ := json.Marshal(f) // strings only: cannot fail
	return b
}

// Write writes the manifest into modulesDir, creating it.
func (m Manifest) Write(modulesDir string) error {
	if err := os.MkdirAll(modulesDir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(modulesDir, ManifestFile), m.Bytes(), 0o644)
}

// Installed turns the manifest into what configs' loader needs to find
// non-local modules.
func (m Manifest) Installed() *configs.InstalledModules {
	inst := &configs.InstalledModules{Modules: map[string]configs.InstalledModule{}, Normalize: NormalizeSource}
	for k, r := range m {
		inst.Modules[k] = configs.InstalledModule{Source: r.Source, Version: r.Version, Dir: r.Dir}
	}
	return inst
}

// NormalizeSource returns a source argument in the form the manifest
// records it; one that does not parse is returned as written, which
// then differs from any record.
func NormalizeSource(raw string) string {
	s, err := ParseSource(raw)
	if err != nil {
		return raw
	}
	return s.String()
}
