package cliconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Env is what Load needs from the process: environment variables and the
// home directory. The command layer builds it from os; tests build maps.
type Env struct {
	Getenv  func(string) string
	HomeDir string
}

func (e Env) get(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// expand replaces $VAR and ${VAR} from the environment, as Terraform does
// in plugin_cache_dir.
func (e Env) expand(s string) string { return os.Expand(s, e.get) }

// ConfigDir is ~/.terraform.d, Terraform's CLI configuration directory on
// Unix; its plugins subdirectory is an implied local mirror.
func (e Env) ConfigDir() string { return filepath.Join(e.HomeDir, ".terraform.d") }

// Load reads the CLI configuration in Terraform's order:
//
//  1. TF_CLI_CONFIG_FILE, else TERRAFORM_CONFIG, else ~/.terraformrc.
//     A named file that does not exist is a warning; a missing
//     ~/.terraformrc is not.
//  2. Only when no file was named: every *.tfrc and *.tfrc.json in
//     ~/.terraform.d, in name order.
//  3. TF_PLUGIN_CACHE_DIR and TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE
//     over the files.
//
// A plugin cache directory that cannot be opened is an error, as in
// Terraform. The Config is usable even with diagnostics.
func Load(env Env) (*Config, hcl.Diagnostics) {
	cfg := &Config{}
	var diags hcl.Diagnostics
	for _, path := range configFiles(env, &diags) {
		fileCfg, fileDiags := ParseFile(path, env.expand)
		diags = append(diags, fileDiags...)
		merged, mergeDiags := cfg.merge(fileCfg)
		diags = append(diags, mergeDiags...)
		cfg = merged
	}
	if dir := env.get("TF_PLUGIN_CACHE_DIR"); dir != "" {
		cfg.PluginCacheDir = dir
	}
	if v := env.get("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"); v != "" && v != "0" {
		cfg.PluginCacheMayBreakDependencyLockFile = true
	}
	if cfg.PluginCacheDir != "" {
		if _, err := os.Stat(cfg.PluginCacheDir); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError, Summary: "Invalid plugin cache directory",
				Detail: fmt.Sprintf("The specified plugin cache dir %s cannot be opened: %s.", cfg.PluginCacheDir, err),
			})
		}
	}
	return cfg, diags
}

// configFiles lists the files to read, in order, reporting a named file
// that is missing.
func configFiles(env Env, diags *hcl.Diagnostics) []string {
	named := env.get("TF_CLI_CONFIG_FILE")
	if named == "" {
		named = env.get("TERRAFORM_CONFIG")
	}
	if named != "" {
		if _, err := os.Stat(named); err != nil {
			*diags = append(*diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning, Summary: "Unable to open CLI configuration file",
				Detail: fmt.Sprintf("The CLI configuration file at %q does not exist.", named),
			})
			return nil
		}
		return []string{named}
	}
	var files []string
	if rc := filepath.Join(env.HomeDir, ".terraformrc"); exists(rc) {
		files = append(files, rc)
	}
	return append(files, dirFiles(env.ConfigDir())...)
}

func dirFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // Terraform reads the directory only when it exists
	}
	var files []string
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && (strings.HasSuffix(name, ".tfrc") || strings.HasSuffix(name, ".tfrc.json")) {
			files = append(files, filepath.Join(dir, name))
		}
	}
	sort.Strings(files)
	return files
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
