package getproviders

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// mirrorPackages lists what a provider network mirror offers for the
// platform: GET BASE/HOST/NAMESPACE/TYPE/index.json names the versions,
// GET .../VERSION.json each version's archives by platform. A mirror
// without the provider (404) offers nothing.
func (h *HTTP) mirrorPackages(ctx context.Context, base string, p addrs.Provider, platform Platform) ([]Package, error) {
	b, err := url.Parse(base)
	if err != nil || b.Scheme != "https" {
		return nil, fmt.Errorf("network mirror URL %q must be an https URL", base)
	}
	typeURL := b.JoinPath(p.Hostname, p.Namespace, p.Type)
	body, _, err := h.getAPI(ctx, typeURL.JoinPath("index.json"))
	if errors.Is(err, errNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to query network mirror %s for %s: %w", base, p, err)
	}
	vs, err := ParseMirrorIndex(body)
	if err != nil {
		return nil, fmt.Errorf("failed to query network mirror %s for %s: %w", base, p, err)
	}
	var pkgs []Package
	for _, v := range vs {
		u := typeURL.JoinPath(v.String() + ".json")
		body, final, err := h.getAPI(ctx, u)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("failed to query network mirror %s for %s %s: %w", base, p, v, err)
		}
		arch, ok, err := parseMirrorVersion(body, platform)
		if err != nil {
			return nil, fmt.Errorf("failed to query network mirror %s for %s %s: %w", base, p, v, err)
		}
		if !ok {
			continue
		}
		zipURL, err := final.Parse(arch.URL)
		if err != nil {
			return nil, fmt.Errorf("network mirror %s lists invalid URL %q for %s %s", base, arch.URL, p, v)
		}
		pkgs = append(pkgs, Package{Provider: p, Version: v, Platform: platform, Location: zipURL.String(),
			remote: &mirrorPackage{http: h, zip: zipURL, hashes: arch.Hashes}})
	}
	return pkgs, nil
}

// ParseMirrorIndex reads a network mirror's index.json: the versions it
// holds. Keys that are not versions are ignored.
func ParseMirrorIndex(body []byte) ([]*version.Version, error) {
	var doc struct {
		Versions map[string]json.RawMessage `json:"versions"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("invalid index.json: %w", err)
	}
	var out []*version.Version
	for s := range doc.Versions {
		if v, err := version.NewSemver(s); err == nil {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b *version.Version) int { return b.Compare(a) })
	return out, nil
}

type mirrorArchive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

func parseMirrorVersion(body []byte, platform Platform) (mirrorArchive, bool, error) {
	var doc struct {
		Archives map[string]mirrorArchive `json:"archives"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return mirrorArchive{}, false, fmt.Errorf("invalid version document: %w", err)
	}
	a, ok := doc.Archives[platform.String()]
	return a, ok, nil
}

// mirrorPackage fetches one archive from a network mirror.
type mirrorPackage struct {
	http   *HTTP
	zip    *url.URL
	hashes []string
}

// fetch downloads the archive and checks it against the hashes the
// mirror lists ("h1:" of its contents, "zh:" of the zip), as Terraform
// does. Terraform 1.5.7 then records only the package's own "h1:" (a
// mirror's list is not signed); OpenTofu 1.12 also records the list.
func (m *mirrorPackage) fetch(ctx context.Context, pkg Package, dir string, progress Progress) (fetched, error) {
	zipPath := filepath.Join(dir, "package.zip")
	if err := m.http.getFile(ctx, m.zip, zipPath, progress); err != nil {
		return fetched{}, fmt.Errorf("failed to download %s %s: %w", pkg.Provider, pkg.Version, err)
	}
	if len(m.hashes) == 0 {
		return fetched{zip: zipPath}, nil
	}
	h1, err := ZipHashH1(zipPath)
	if err != nil {
		return fetched{}, err
	}
	sum, err := fileSHA256(zipPath)
	if err != nil {
		return fetched{}, err
	}
	zh := HashPrefixZH + hex.EncodeToString(sum[:])
	for _, want := range m.hashes {
		if want == h1 || strings.EqualFold(want, zh) {
			return fetched{zip: zipPath, auth: "verified checksum"}, nil
		}
	}
	return fetched{}, fmt.Errorf("the archive for %s %s from the network mirror does not match any of the checksums the mirror lists", pkg.Provider, pkg.Version)
}
