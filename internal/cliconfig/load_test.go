package cliconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/getproviders"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func envOf(home string, vars map[string]string) Env {
	return Env{HomeDir: home, Getenv: func(k string) string { return vars[k] }}
}

func TestLoad(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(home, "cache")
	other := filepath.Join(home, "other-cache")
	for _, d := range []string{cache, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(home, ".terraformrc"), "plugin_cache_dir = \"$HOME/cache\"\n")
	write(t, filepath.Join(home, ".terraform.d", "a.tfrc"), "provider_installation {\n  filesystem_mirror {\n    path = \"/m\"\n  }\n}\n")
	write(t, filepath.Join(home, ".terraform.d", "ignored.txt"), "not = [valid")
	named := filepath.Join(home, "named.tfrc")
	write(t, named, "plugin_cache_may_break_dependency_lock_file = true\n")

	tests := map[string]struct {
		reason      string
		vars        map[string]string
		wantCache   string
		wantMay     bool
		wantMethods int
		wantFiles   []string
		wantDiag    string
	}{
		"home files": {
			reason: "~/.terraformrc then ~/.terraform.d/*.tfrc", vars: map[string]string{"HOME": home},
			wantCache: cache, wantMethods: 1,
			wantFiles: []string{filepath.Join(home, ".terraformrc"), filepath.Join(home, ".terraform.d", "a.tfrc")},
		},
		"named file": {
			reason: "TF_CLI_CONFIG_FILE replaces both home sources", vars: map[string]string{"TF_CLI_CONFIG_FILE": named},
			wantMay: true, wantFiles: []string{named},
		},
		"legacy name": {
			reason: "TERRAFORM_CONFIG is the older name", vars: map[string]string{"TERRAFORM_CONFIG": named},
			wantMay: true, wantFiles: []string{named},
		},
		"env cache": {
			reason: "TF_PLUGIN_CACHE_DIR wins over the files", vars: map[string]string{"HOME": home, "TF_PLUGIN_CACHE_DIR": other, "TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE": "1"},
			wantCache: other, wantMay: true, wantMethods: 1,
			wantFiles: []string{filepath.Join(home, ".terraformrc"), filepath.Join(home, ".terraform.d", "a.tfrc")},
		},
		"missing named": {
			reason: "a named file that is missing is only a warning", vars: map[string]string{"TF_CLI_CONFIG_FILE": filepath.Join(home, "nope")},
			wantDiag: "Unable to open CLI configuration file",
		},
		"missing cache": {
			reason: "a cache directory must exist", vars: map[string]string{"TF_CLI_CONFIG_FILE": "/dev/null", "TF_PLUGIN_CACHE_DIR": filepath.Join(home, "nope")},
			wantFiles: []string{"/dev/null"}, wantCache: filepath.Join(home, "nope"), wantDiag: "Invalid plugin cache directory",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg, diags := Load(envOf(home, tc.vars))
			var gotDiag string
			if len(diags) > 0 {
				gotDiag = diags[0].Summary
			}
			if gotDiag != tc.wantDiag {
				t.Errorf("%s: diagnostics %v", tc.reason, diags)
			}
			methods := 0
			if cfg.ProviderInstallation != nil {
				methods = len(cfg.ProviderInstallation.Methods)
			}
			got := []any{cfg.PluginCacheDir, cfg.PluginCacheMayBreakDependencyLockFile, methods, cfg.Files}
			want := []any{tc.wantCache, tc.wantMay, tc.wantMethods, tc.wantFiles}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func TestLoadDuplicateAcrossFiles(t *testing.T) {
	home := t.TempDir()
	block := "provider_installation {\n  direct {}\n}\n"
	write(t, filepath.Join(home, ".terraformrc"), block)
	write(t, filepath.Join(home, ".terraform.d", "b.tfrc"), block)
	_, diags := Load(envOf(home, nil))
	if len(diags) != 1 || diags[0].Summary != "Duplicate provider_installation block" || diags[0].Subject.Start != (hcl.Pos{Line: 1, Column: 1, Byte: 0}) {
		t.Fatalf("want one duplicate error at the second block, got %v", diags)
	}
}

func TestMethods(t *testing.T) {
	home := t.TempDir()
	cwd := t.TempDir()
	for _, d := range []string{filepath.Join(cwd, "terraform.d/plugins"), filepath.Join(home, ".local/share/terraform/plugins")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pkgDir := filepath.Join(home, "withpkg/terraform/plugins/example.com/acme/widget/1.0.0/linux_amd64")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	explicit := &Config{ProviderInstallation: &ProviderInstallation{Methods: []getproviders.Method{{Kind: getproviders.Direct}}}}
	tests := map[string]struct {
		reason     string
		cfg        *Config
		pluginDirs []string
		vars       map[string]string
		want       []getproviders.Method
	}{
		"plugin dirs": {
			reason: "-plugin-dir directories are used exclusively", cfg: explicit, pluginDirs: []string{"a", "b"},
			want: []getproviders.Method{{Dir: "a"}, {Dir: "b"}},
		},
		"explicit": {reason: "the block's methods as written", cfg: explicit, want: explicit.ProviderInstallation.Methods},
		"implied": {
			reason: "existing implied directories, then direct", cfg: &Config{},
			want: []getproviders.Method{
				{Dir: getproviders.Dir(filepath.Join(cwd, "terraform.d/plugins"))},
				{Dir: getproviders.Dir(filepath.Join(home, ".local/share/terraform/plugins"))},
				{Kind: getproviders.Direct},
			},
		},
		"implied excludes": {
			reason: "a provider with a package in an implied directory is not looked up in its registry", cfg: &Config{},
			vars: map[string]string{"XDG_DATA_HOME": filepath.Join(home, "withpkg")},
			want: []getproviders.Method{
				{Dir: getproviders.Dir(filepath.Join(cwd, "terraform.d/plugins"))},
				{Dir: getproviders.Dir(filepath.Join(home, "withpkg/terraform/plugins"))},
				{Kind: getproviders.Direct, Exclude: []getproviders.Pattern{{Hostname: "example.com", Namespace: "acme", Type: "widget"}}},
			},
		},
		"xdg relative": {
			reason: "a relative XDG_DATA_HOME is ignored", cfg: &Config{}, vars: map[string]string{"XDG_DATA_HOME": "rel", "XDG_DATA_DIRS": "rel2"},
			want: []getproviders.Method{
				{Dir: getproviders.Dir(filepath.Join(cwd, "terraform.d/plugins"))},
				{Dir: getproviders.Dir(filepath.Join(home, ".local/share/terraform/plugins"))},
				{Kind: getproviders.Direct},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := tc.cfg.Methods(tc.pluginDirs, envOf(home, tc.vars), cwd)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func TestImpliedMirrorDirs(t *testing.T) {
	got := ImpliedMirrorDirs(envOf("/home/u", map[string]string{"XDG_DATA_DIRS": "/opt/a:rel:/opt/b"}), "/work")
	want := []string{
		"/work/terraform.d/plugins",
		"/home/u/.terraform.d/plugins",
		"/home/u/.local/share/terraform/plugins",
		"/opt/a/terraform/plugins",
		"/opt/b/terraform/plugins",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got\n%s", diff)
	}
	got = ImpliedMirrorDirs(envOf("/home/u", nil), "/work")
	if diff := cmp.Diff([]string{"/usr/local/share/terraform/plugins", "/usr/share/terraform/plugins"}, got[3:]); diff != "" {
		t.Errorf("default XDG_DATA_DIRS: -want +got\n%s", diff)
	}
}
