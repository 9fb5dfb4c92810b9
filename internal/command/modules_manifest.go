package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// moduleManifest is .terraform/modules/modules.json as Terraform writes
// it: one record per module call in the tree, keyed by the dotted call
// path, so Terraform can use a directory Cairn initialised.
type moduleManifest struct {
	Modules []moduleRecord `json:"Modules"`
}

type moduleRecord struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

// installModules records the configuration's local modules in the
// module manifest and reports each as Terraform's init does. Local
// modules need no copying: the manifest points at their directories.
func (m *Meta) installModules(cfg *configs.Module) diags.Diagnostics {
	if len(cfg.ModuleCalls) == 0 {
		return nil
	}
	fmt.Fprintf(m.Stdout, "%s\n", m.bold("Initializing modules..."))
	manifest := moduleManifest{Modules: []moduleRecord{{Key: "", Source: "", Dir: "."}}}
	cfg.Walk(func(mod *configs.Module) {
		if mod.Call == nil {
			return
		}
		key := strings.Join(mod.Path, ".")
		manifest.Modules = append(manifest.Modules, moduleRecord{Key: key, Source: mod.Call.SourceAddr, Dir: mod.Dir})
		fmt.Fprintf(m.Stdout, "- %s in %s\n", key, mod.Dir)
	})
	fmt.Fprintln(m.Stdout)
	b, err := json.Marshal(manifest)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to write module manifest", "%s.", err)}
	}
	dir := filepath.Join(m.dataDir(), "modules")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to write module manifest", "Creating %s: %s.", dir, err)}
	}
	if err := os.WriteFile(filepath.Join(dir, "modules.json"), b, 0o644); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to write module manifest", "%s.", err)}
	}
	return nil
}
