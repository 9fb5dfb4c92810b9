package cliconfig

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/getproviders"
)

// Methods returns the installation methods init searches, in order:
//
//   - with -plugin-dir directories, those directories only, each a
//     filesystem mirror (Terraform uses them exclusively);
//   - else the provider_installation block's methods as written;
//   - else the implied local mirror directories that exist (see
//     ImpliedMirrorDirs), then direct for every provider none of them
//     holds a package of, as Terraform excludes those from direct.
//
// cwd is the directory Terraform was started in: the implied
// terraform.d/plugins is relative to it, not to -chdir.
func (c *Config) Methods(pluginDirs []string, env Env, cwd string) []getproviders.Method {
	if len(pluginDirs) > 0 {
		ms := make([]getproviders.Method, len(pluginDirs))
		for i, d := range pluginDirs {
			ms[i] = getproviders.Method{Kind: getproviders.FilesystemMirror, Dir: getproviders.Dir(d)}
		}
		return ms
	}
	if c.ProviderInstallation != nil {
		return c.ProviderInstallation.Methods
	}
	var ms []getproviders.Method
	direct := getproviders.Method{Kind: getproviders.Direct}
	for _, d := range ImpliedMirrorDirs(env, cwd) {
		if info, err := os.Stat(d); err == nil && info.IsDir() {
			dir := getproviders.Dir(d)
			ms = append(ms, getproviders.Method{Kind: getproviders.FilesystemMirror, Dir: dir})
			for _, p := range dir.Providers() {
				direct.Exclude = append(direct.Exclude, getproviders.Pattern{Hostname: p.Hostname, Namespace: p.Namespace, Type: p.Type})
			}
		}
	}
	return append(ms, direct)
}

// ImpliedMirrorDirs lists, in Terraform's order on Unix, the directories
// searched when there is no provider_installation block, whether or not
// they exist: terraform.d/plugins under cwd, ~/.terraform.d/plugins,
// $XDG_DATA_HOME/terraform/plugins (default ~/.local/share/...), then
// terraform/plugins under each absolute entry of $XDG_DATA_DIRS (default
// /usr/local/share and /usr/share). Relative XDG entries are ignored, as
// the XDG specification asks.
func ImpliedMirrorDirs(env Env, cwd string) []string {
	dirs := []string{
		filepath.Join(cwd, "terraform.d", "plugins"),
		filepath.Join(env.ConfigDir(), "plugins"),
	}
	dataHome := env.get("XDG_DATA_HOME")
	if !filepath.IsAbs(dataHome) {
		dataHome = filepath.Join(env.HomeDir, ".local", "share")
	}
	dirs = append(dirs, filepath.Join(dataHome, "terraform", "plugins"))
	dataDirs := env.get("XDG_DATA_DIRS")
	if dataDirs == "" {
		dataDirs = "/usr/local/share:/usr/share"
	}
	for _, d := range strings.Split(dataDirs, ":") {
		if filepath.IsAbs(d) {
			dirs = append(dirs, filepath.Join(d, "terraform", "plugins"))
		}
	}
	return dirs
}
