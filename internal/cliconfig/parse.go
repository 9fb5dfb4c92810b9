package cliconfig

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

var fileSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "plugin_cache_dir"},
		{Name: "plugin_cache_may_break_dependency_lock_file"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "provider_installation"}, {Type: "credentials", LabelNames: []string{"host"}}},
}

var credentialsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "token"}}}

var installationSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "dev_overrides"},
	{Type: "filesystem_mirror"},
	{Type: "direct"},
	{Type: "network_mirror"},
}}

// Parse decodes one CLI configuration file. JSON is recognised as
// Terraform's parser recognises it, by a leading "{"; anything else is
// native syntax, where dev_overrides keys may be quoted strings as in
// Terraform's examples. expand replaces $VAR references in
// plugin_cache_dir (nil leaves them). Diagnostics carry file:line:col.
func Parse(src []byte, filename string, expand func(string) string) (*Config, hcl.Diagnostics) {
	cfg := &Config{Files: []string{filename}}
	var f *hcl.File
	var diags hcl.Diagnostics
	var keys quotedKeys
	if bytes.HasPrefix(bytes.TrimSpace(src), []byte("{")) {
		f, diags = json.Parse(src, filename)
	} else {
		src, keys = rewriteQuotedKeys(src, filename)
		f, diags = hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return cfg, diags
	}
	content, _, moreDiags := f.Body.PartialContent(fileSchema)
	diags = append(diags, moreDiags...)
	diags = append(diags, decodeTopLevel(cfg, content, expand)...)
	installations := 0
	for _, block := range content.Blocks {
		if block.Type == "credentials" {
			diags = append(diags, decodeCredentials(cfg, block)...)
			continue
		}
		if installations++; installations > 1 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError, Summary: "Duplicate provider_installation block",
				Detail:  "No more than one provider_installation block may be specified.",
				Subject: block.DefRange.Ptr(),
			})
			continue
		}
		pi, piDiags := decodeInstallation(block, keys)
		diags = append(diags, piDiags...)
		cfg.ProviderInstallation = pi
	}
	return cfg, diags
}

// ParseFile reads and parses one file; a read failure is a diagnostic
// naming the file.
func ParseFile(path string, expand func(string) string) (*Config, hcl.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return &Config{}, hcl.Diagnostics{{
			Severity: hcl.DiagError, Summary: "Failed to read CLI configuration",
			Detail: fmt.Sprintf("Error reading %s: %s.", path, err),
		}}
	}
	return Parse(src, path, expand)
}

func decodeTopLevel(cfg *Config, content *hcl.BodyContent, expand func(string) string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := content.Attributes["plugin_cache_dir"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &cfg.PluginCacheDir)...)
		if expand != nil {
			cfg.PluginCacheDir = expand(cfg.PluginCacheDir)
		}
	}
	if attr, ok := content.Attributes["plugin_cache_may_break_dependency_lock_file"]; ok {
		diags = append(diags, gohcl.DecodeExpression(attr.Expr, nil, &cfg.PluginCacheMayBreakDependencyLockFile)...)
	}
	return diags
}

// decodeCredentials keeps a credentials block's token for its host (other
// attributes, such as a credentials helper's, are ignored).
func decodeCredentials(cfg *Config, block *hcl.Block) hcl.Diagnostics {
	content, _, diags := block.Body.PartialContent(credentialsSchema)
	attr, ok := content.Attributes["token"]
	if !ok || diags.HasErrors() {
		return diags
	}
	var token string
	if d := gohcl.DecodeExpression(attr.Expr, nil, &token); d.HasErrors() {
		return append(diags, d...)
	}
	if cfg.Credentials == nil {
		cfg.Credentials = map[string]string{}
	}
	cfg.Credentials[strings.ToLower(block.Labels[0])] = token
	return diags
}

func decodeInstallation(block *hcl.Block, keys quotedKeys) (*ProviderInstallation, hcl.Diagnostics) {
	pi := &ProviderInstallation{DevOverrides: map[addrs.Provider]string{}, DeclRange: block.DefRange}
	content, diags := block.Body.Content(installationSchema)
	for _, mb := range content.Blocks {
		switch mb.Type {
		case "dev_overrides":
			if len(pi.Methods) > 0 {
				diags = append(diags, errorAt(mb.DefRange, "Invalid provider_installation method block",
					"The dev_overrides block must appear before all other installation methods, because development overrides always have the highest priority."))
				continue
			}
			diags = append(diags, decodeDevOverrides(pi, mb, keys)...)
		default:
			m, mDiags := decodeMethod(mb)
			diags = append(diags, mDiags...)
			if !mDiags.HasErrors() {
				pi.Methods = append(pi.Methods, m)
			}
		}
	}
	return pi, diags
}

func decodeDevOverrides(pi *ProviderInstallation, block *hcl.Block, keys quotedKeys) hcl.Diagnostics {
	attrs, diags := block.Body.JustAttributes()
	for _, attr := range attrs {
		var dir string
		if d := gohcl.DecodeExpression(attr.Expr, nil, &dir); d.HasErrors() {
			diags = append(diags, d...)
			continue
		}
		raw := keys.original(attr.Name)
		p, err := addrs.ParseProviderSource(raw)
		if err != nil {
			diags = append(diags, errorAt(attr.NameRange, "Invalid provider installation dev overrides",
				fmt.Sprintf("The entry %q is not a valid provider source string: %s.", raw, err)))
			continue
		}
		pi.DevOverrides[p] = filepath.Clean(dir)
	}
	return diags
}

var methodSchema = map[string]*hcl.BodySchema{
	"filesystem_mirror": {Attributes: []hcl.AttributeSchema{{Name: "path", Required: true}, {Name: "include"}, {Name: "exclude"}}},
	"network_mirror":    {Attributes: []hcl.AttributeSchema{{Name: "url", Required: true}, {Name: "include"}, {Name: "exclude"}}},
	"direct":            {Attributes: []hcl.AttributeSchema{{Name: "include"}, {Name: "exclude"}}},
}

func decodeMethod(block *hcl.Block) (getproviders.Method, hcl.Diagnostics) {
	var m getproviders.Method
	content, diags := block.Body.Content(methodSchema[block.Type])
	if diags.HasErrors() {
		return m, diags
	}
	switch block.Type {
	case "filesystem_mirror":
		var path string
		diags = append(diags, gohcl.DecodeExpression(content.Attributes["path"].Expr, nil, &path)...)
		m = getproviders.Method{Kind: getproviders.FilesystemMirror, Dir: getproviders.Dir(path)}
	case "network_mirror":
		diags = append(diags, gohcl.DecodeExpression(content.Attributes["url"].Expr, nil, &m.URL)...)
		m.Kind = getproviders.NetworkMirror
	default:
		m.Kind = getproviders.Direct
	}
	var more hcl.Diagnostics
	m.Include, more = decodePatterns(content.Attributes["include"])
	diags = append(diags, more...)
	m.Exclude, more = decodePatterns(content.Attributes["exclude"])
	return m, append(diags, more...)
}

func decodePatterns(attr *hcl.Attribute) ([]getproviders.Pattern, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil
	}
	var raw []string
	if diags := gohcl.DecodeExpression(attr.Expr, nil, &raw); diags.HasErrors() {
		return nil, diags
	}
	var pats []getproviders.Pattern
	var diags hcl.Diagnostics
	for _, s := range raw {
		pat, err := getproviders.ParsePattern(s)
		if err != nil {
			diags = append(diags, errorAt(attr.Expr.Range(), "Invalid provider_installation method block", err.Error()+"."))
			continue
		}
		pats = append(pats, pat)
	}
	return pats, diags
}

func errorAt(rng hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: rng.Ptr()}
}
