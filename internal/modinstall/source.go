package modinstall

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	getter "github.com/hashicorp/go-getter"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// Kind is which of Terraform's three kinds of module source an address
// is; each is installed differently.
type Kind int

const (
	// Local is a path beginning with ./ or ../, part of the caller's
	// package: nothing is downloaded.
	Local Kind = iota
	// Registry is a module registry address, host/namespace/name/system,
	// whose versions the registry lists.
	Registry
	// Remote is any other address, fetched by go-getter.
	Remote
)

// Source is a parsed module source address in Terraform's normalised
// form: String is what modules.json records and what a later load
// compares the configuration's source against.
type Source struct {
	Kind Kind
	// Package is, for Remote, the go-getter address after detection
	// (github.com/org/repo becomes git::https://github.com/org/repo.git);
	// for Registry, host/namespace/name/system; for Local, the cleaned
	// path.
	Package string
	// Subdir is the directory of the module inside the package, from
	// the address's //subdir part; empty for the package's root.
	Subdir string
}

// String returns the source in Terraform's normalised form, the subdir
// placed before any query string as go-getter expects it.
func (s Source) String() string {
	if s.Subdir == "" {
		return s.Package
	}
	if base, query, ok := strings.Cut(s.Package, "?"); ok {
		return base + "//" + s.Subdir + "?" + query
	}
	return s.Package + "//" + s.Subdir
}

// ErrMaybeRelativePath is returned for an address that looks like a
// relative path without ./ or ../, which Terraform would not read as
// one.
type ErrMaybeRelativePath struct{ Addr string }

func (e *ErrMaybeRelativePath) Error() string {
	return fmt.Sprintf("The module address %q could not be resolved.\n\nIf you intended this as a path relative to the current module, use \"./%s\" instead. The \"./\" prefix indicates that the address is a relative filesystem path.", e.Addr, e.Addr)
}

// ParseSource parses a module block's source argument as Terraform
// 1.5.7 does: a local path first, then a registry address, then a
// go-getter address. Errors are for the user: they say what is wrong
// with the address. Parsing makes no network request (Terraform's
// BitBucket detector, which asks bitbucket.org's API, is not used).
func ParseSource(raw string) (Source, error) {
	if !utf8.ValidString(raw) {
		return Source{}, fmt.Errorf("a module source address must be valid UTF-8 text")
	}
	if IsLocal(raw) {
		return Source{Kind: Local, Package: cleanLocal(raw)}, nil
	}
	if reg, ok := parseRegistry(raw); ok {
		return reg, nil
	}
	return parseRemote(raw)
}

// parseRegistry parses a registry address. terraform-registry-address
// panics formatting some hostnames its parser accepted (found by
// FuzzParseSource), so a panic there means "not a registry address".
func parseRegistry(raw string) (src Source, ok bool) {
	defer func() {
		if recover() != nil {
			src, ok = Source{}, false
		}
	}()
	reg, err := tfaddr.ParseModuleSource(raw)
	if err != nil {
		return Source{}, false
	}
	return Source{Kind: Registry, Package: reg.Package.String(), Subdir: reg.Subdir}, true
}

// IsLocal reports whether a source is a local path, which Terraform
// recognises by its ./ or ../ prefix alone.
func IsLocal(raw string) bool {
	for _, prefix := range []string{"./", "../", `.\`, `..\`} {
		if strings.HasPrefix(raw, prefix) {
			return true
		}
	}
	return false
}

func cleanLocal(raw string) string {
	clean := path.Clean(strings.ReplaceAll(raw, `\`, "/"))
	if !strings.HasPrefix(clean, "../") {
		clean = "./" + clean
	}
	return clean
}

// parseRemote detects the go-getter address of raw and splits off its
// subdirectory, refusing one that leaves the package.
func parseRemote(raw string) (Source, error) {
	if raw == "" {
		return Source{}, fmt.Errorf("a module source address must not be empty")
	}
	pkg, sub := splitSubdir(raw)
	if escapes(sub) {
		return Source{}, fmt.Errorf("subdirectory path %q leads outside of the module package", sub)
	}
	detected, err := getter.Detect(pkg, "", detectors())
	if err != nil {
		return Source{}, err
	}
	norm, more := splitSubdir(detected)
	switch {
	case more != "" && sub != "":
		sub = path.Join(more, sub)
	case more != "":
		sub = more
	}
	if escapes(sub) {
		return Source{}, fmt.Errorf("detected subdirectory path %q of %q leads outside of the module package", sub, norm)
	}
	return Source{Kind: Remote, Package: norm, Subdir: sub}, nil
}

// splitSubdir splits go-getter's //subdir from an address, cleaning the
// subdirectory.
func splitSubdir(addr string) (pkg, sub string) {
	pkg, sub = getter.SourceDirSubdir(addr)
	if sub != "" {
		sub = path.Clean(sub)
	}
	return pkg, sub
}

func escapes(sub string) bool { return sub == ".." || strings.HasPrefix(sub, "../") }

// detectors are Terraform's go-getter detectors, less BitBucket's (which
// makes a network request while parsing), with Terraform's own file
// detector: an absolute path is a package to copy, a relative one an
// error that suggests ./.
func detectors() []getter.Detector {
	return []getter.Detector{
		new(getter.GitHubDetector),
		new(getter.GitDetector),
		new(getter.GCSDetector),
		new(getter.S3Detector),
		fileDetector{},
	}
}

type fileDetector struct{}

func (fileDetector) Detect(src, _ string) (string, bool, error) {
	if src == "" {
		return "", false, nil
	}
	if !filepath.IsAbs(src) {
		return "", true, &ErrMaybeRelativePath{Addr: src}
	}
	return "file:///" + strings.TrimPrefix(filepath.ToSlash(src), "/"), true, nil
}
