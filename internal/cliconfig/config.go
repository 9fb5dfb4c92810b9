package cliconfig

import (
	"maps"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// Config is the part of the CLI configuration provider installation uses.
type Config struct {
	// PluginCacheDir is the shared package cache, "" when none. $VAR and
	// ${VAR} in the file are expanded, as Terraform expands them.
	PluginCacheDir string
	// PluginCacheMayBreakDependencyLockFile lets a cached package be used
	// although the lock file has no hash for it yet.
	PluginCacheMayBreakDependencyLockFile bool
	// ProviderInstallation is nil when no provider_installation block was
	// given; then the implied local mirror directories apply.
	ProviderInstallation *ProviderInstallation
	// Credentials maps a host name (lower case) to the API token of its
	// credentials block. Never printed.
	Credentials map[string]string
	// Files lists the files read, in order, for messages.
	Files []string
}

// ProviderInstallation is the decoded provider_installation block.
type ProviderInstallation struct {
	// DevOverrides maps a provider to a directory holding its plugin
	// binary, used as is with no version selection and no lock entry.
	DevOverrides map[addrs.Provider]string
	// Methods are the installation methods in the order written.
	Methods []getproviders.Method
	// DeclRange is the block's header, for "declared here" messages.
	DeclRange hcl.Range
}

// merge returns c overlaid with o, as Terraform merges a second file into
// the first: a non-empty cache directory replaces, flags accumulate, and
// a second provider_installation block is an error raised by validate.
func (c *Config) merge(o *Config) (*Config, hcl.Diagnostics) {
	out := *c
	if o.PluginCacheDir != "" {
		out.PluginCacheDir = o.PluginCacheDir
	}
	out.PluginCacheMayBreakDependencyLockFile = c.PluginCacheMayBreakDependencyLockFile || o.PluginCacheMayBreakDependencyLockFile
	out.Files = append(append([]string(nil), c.Files...), o.Files...)
	if len(o.Credentials) > 0 {
		out.Credentials = map[string]string{}
		maps.Copy(out.Credentials, c.Credentials)
		maps.Copy(out.Credentials, o.Credentials)
	}
	out.ProviderInstallation = c.ProviderInstallation
	if o.ProviderInstallation == nil {
		return &out, nil
	}
	if c.ProviderInstallation != nil {
		return &out, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Duplicate provider_installation block",
			Detail:   "No more than one provider_installation block may be specified across the CLI configuration files; the first is at " + c.ProviderInstallation.DeclRange.String() + ".",
			Subject:  o.ProviderInstallation.DeclRange.Ptr(),
		}}
	}
	out.ProviderInstallation = o.ProviderInstallation
	return &out, nil
}

// Token returns the API token for a registry host, as Terraform finds
// it: the TF_TOKEN_ environment variable named after the host (dots as
// "_", dashes as "__"; a host with a port cannot be named so), else the
// credentials block for the host, else "".
func (c *Config) Token(env Env, host string) string {
	host = strings.ToLower(host)
	name := "TF_TOKEN_" + strings.ReplaceAll(strings.ReplaceAll(host, "-", "__"), ".", "_")
	if t := env.get(name); t != "" && !strings.Contains(host, ":") {
		return t
	}
	return c.Credentials[host]
}
