package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/getproviders"
)

// runProvidersMirror implements "cairn providers mirror DIR": the newest
// version of each required provider its constraints allow (the lock file
// is not consulted, as in Terraform 1.5.7), downloaded for every
// -platform as a zip in the packed layout DIR/HOST/NS/TYPE/, then the
// network mirror protocol's index.json and VERSION.json written for
// every package DIR holds (earlier runs' included), as Terraform does, so
// DIR serves both as a filesystem mirror and, published over HTTPS, as a
// network mirror.
func runProvidersMirror(m *Meta, args []string) int {
	fs := newFlagSet("providers mirror", m.Stderr)
	noColorFlag(fs, m)
	var platforms stringList
	fs.Var(&platforms, "platform", "Mirror the packages of this OS_ARCH platform (repeatable); default: the current one.")
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 1 {
		return m.errorf("No output directory specified", "The providers mirror command requires an output directory as a command-line argument.")
	}
	out := fs.Arg(0)
	plats, ds := lockPlatforms(platforms)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	cfg, cds := m.loadConfig()
	if ds = ds.Append(cds); ds.HasErrors() {
		return m.fail(ds)
	}
	reqs, rds := m.lockRequirements(cfg, nil)
	if ds = ds.Append(rds); ds.HasErrors() {
		return m.fail(ds)
	}
	cli, cliDs := m.cliConfig()
	if ds = ds.Append(cliDs); ds.HasErrors() {
		return m.fail(ds)
	}
	src := getproviders.Source{Methods: cli.Methods(nil, m.cliEnv(), m.Dir),
		HTTP: &getproviders.HTTP{Client: registryClient(), Token: func(host string) string { return cli.Token(m.cliEnv(), host) }}}
	for _, r := range reqs {
		p := r.Provider
		cs, cds := requirementConstraints(r)
		if ds = ds.Append(cds); ds.HasErrors() {
			return m.fail(ds)
		}
		fmt.Fprintf(m.Stdout, "- Mirroring %s...\n", p.ForDisplay())
		for i, plat := range plats {
			src.Platform = plat
			avail, err := src.Available(p)
			if err != nil {
				return m.fail(ds.Append(getproviders.QueryDiagnostic(p, err, nil)))
			}
			pkg, err := getproviders.Select(p, avail, cs, nil, true)
			if err != nil {
				return m.fail(ds.Append(getproviders.QueryDiagnostic(p, err, nil)))
			}
			if i == 0 && len(cs) > 0 {
				fmt.Fprintf(m.Stdout, "  - Selected v%s to meet constraints %s\n", pkg.Version, cs.String())
			} else if i == 0 {
				fmt.Fprintf(m.Stdout, "  - Selected v%s with no constraints\n", pkg.Version)
			}
			fmt.Fprintf(m.Stdout, "  - Downloading package for %s...\n", plat)
			if !pkg.Supported() {
				return m.fail(ds.Append(getproviders.PlatformDiagnostic(pkg, nil)))
			}
			dest := filepath.Join(out, p.Hostname, p.Namespace, p.Type, getproviders.PackedName(pkg))
			arch, err := getproviders.FetchArchive(pkg, dest)
			if err != nil {
				return m.fail(ds.Append(getproviders.InstallDiagnostic(pkg, err, nil)))
			}
			if arch.Auth != "" {
				// Terraform names the kind of signature here, not the key.
				kind, _, _ := strings.Cut(arch.Auth, ", key ID")
				fmt.Fprintf(m.Stdout, "  - Package authenticated: %s\n", kind)
			}
		}
	}
	if ids := writeMirrorIndexes(out); ids.HasErrors() {
		return m.fail(ds.Append(ids))
	}
	m.showDiags(ds)
	return 0
}

// writeMirrorIndexes writes, for every provider with zips under dir, the
// network mirror protocol's index.json (its versions) and VERSION.json
// (each platform's zip, relative, with its h1: hash), indented as
// Terraform writes them.
func writeMirrorIndexes(dir string) diags.Diagnostics {
	d := getproviders.Dir(dir)
	for _, p := range d.Providers() {
		pkgs, err := d.Packages(p)
		if err != nil {
			return diags.Diagnostics{diags.Errorf("Failed to read the mirror directory", "%s", err)}
		}
		// Maps, not structs, so the keys come sorted ("hashes" before
		// "url") as in Terraform's files.
		type archive = map[string]any
		versions := map[string]map[string]archive{}
		for _, pkg := range pkgs {
			if !pkg.Packed() {
				continue
			}
			h, err := getproviders.ZipHashH1(pkg.Location)
			if err != nil {
				return diags.Diagnostics{diags.Errorf("Failed to hash a mirrored package", "%s", err)}
			}
			v := pkg.Version.String()
			if versions[v] == nil {
				versions[v] = map[string]archive{}
			}
			versions[v][pkg.Platform.String()] = archive{"url": filepath.Base(pkg.Location), "hashes": []string{h}}
		}
		if len(versions) == 0 {
			continue
		}
		main := map[string]map[string]struct{}{"versions": {}}
		for v, archives := range versions {
			main["versions"][v] = struct{}{}
			if ds := writeMirrorJSON(dir, p, v+".json", map[string]any{"archives": archives}); ds.HasErrors() {
				return ds
			}
		}
		if ds := writeMirrorJSON(dir, p, "index.json", main); ds.HasErrors() {
			return ds
		}
	}
	return nil
}

func writeMirrorJSON(dir string, p addrs.Provider, name string, v any) diags.Diagnostics {
	b, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, p.Hostname, p.Namespace, p.Type, name), b, 0o644)
	}
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to write a mirror index", "%s", err)}
	}
	return nil
}
