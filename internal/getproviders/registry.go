package getproviders

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// RegistryVersion is one entry of the provider registry protocol's
// versions document.
type RegistryVersion struct {
	Version   string `json:"version"`
	Protocols []string
	Platforms []Platform
}

// ParseRegistryVersions reads the body of GET .../NAMESPACE/TYPE/versions.
// Entries whose version is not a semantic version are dropped, as
// Terraform drops them; a body that is not the document is an error.
func ParseRegistryVersions(body []byte) ([]RegistryVersion, error) {
	var doc struct {
		Versions []struct {
			Version   string   `json:"version"`
			Protocols []string `json:"protocols"`
			Platforms []struct {
				OS   string `json:"os"`
				Arch string `json:"arch"`
			} `json:"platforms"`
		} `json:"versions"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return nil, fmt.Errorf("invalid response from registry: %w", err)
	}
	var out []RegistryVersion
	for _, v := range doc.Versions {
		if _, err := version.NewSemver(v.Version); err != nil {
			continue
		}
		rv := RegistryVersion{Version: v.Version, Protocols: v.Protocols}
		for _, p := range v.Platforms {
			rv.Platforms = append(rv.Platforms, Platform{OS: p.OS, Arch: p.Arch})
		}
		out = append(out, rv)
	}
	return out, nil
}

// downloadMeta is the provider registry protocol's download document.
type downloadMeta struct {
	Protocols           []string `json:"protocols"`
	OS                  string   `json:"os"`
	Arch                string   `json:"arch"`
	Filename            string   `json:"filename"`
	DownloadURL         string   `json:"download_url"`
	SHASumsURL          string   `json:"shasums_url"`
	SHASumsSignatureURL string   `json:"shasums_signature_url"`
	SHASum              string   `json:"shasum"`
	SigningKeys         struct {
		GPGPublicKeys []struct {
			KeyID      string `json:"key_id"`
			ASCIIArmor string `json:"ascii_armor"`
		} `json:"gpg_public_keys"`
	} `json:"signing_keys"`
}

// registryBase finds the providers.v1 service of host by service
// discovery (https://HOST/.well-known/terraform.json). An unreachable
// host is Terraform's "could not connect"; a host without the service is
// its "does not support the provider registry protocol".
func (h *HTTP) registryBase(ctx context.Context, host string) (*url.URL, error) {
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	body, final, err := h.getAPI(ctx, disco)
	if errors.Is(err, errNotFound) {
		return nil, fmt.Errorf("host %s does not offer a Terraform provider registry", host)
	}
	if err != nil {
		return nil, fmt.Errorf("could not connect to %s: failed to request discovery document: %w", host, err)
	}
	var services map[string]any
	if err := json.Unmarshal(body, &services); err != nil {
		return nil, fmt.Errorf("failed to decode discovery document from %s: %w", host, err)
	}
	s, ok := services["providers.v1"].(string)
	if !ok {
		return nil, fmt.Errorf("host %s does not offer a Terraform provider registry", host)
	}
	base, err := final.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("host %s has invalid providers.v1 URL %q: %w", host, s, err)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	return base, nil
}

// registryPackages lists the provider's versions offering platform, as
// packages to be fetched on install.
func (h *HTTP) registryPackages(ctx context.Context, p addrs.Provider, platform Platform) ([]Package, error) {
	base, err := h.providersBase(ctx, p.Hostname)
	if err != nil {
		return nil, err
	}
	u := base.JoinPath(p.Namespace, p.Type, "versions")
	body, _, err := h.getAPI(ctx, u)
	if errors.Is(err, errNotFound) {
		return nil, fmt.Errorf("provider registry %s does not have a provider named %s", p.Hostname, p)
	}
	if err != nil {
		return nil, fmt.Errorf("could not query provider registry for %s: %w", p, err)
	}
	vs, err := ParseRegistryVersions(body)
	if err != nil {
		return nil, fmt.Errorf("could not query provider registry for %s: %w", p, err)
	}
	// Every version is offered, as Terraform offers them: a version
	// without this platform fails when selected ("Incompatible provider
	// version") rather than an older one being chosen silently.
	var pkgs []Package
	for _, rv := range vs {
		v, _ := version.NewSemver(rv.Version)
		dl := base.JoinPath(p.Namespace, p.Type, rv.Version, "download", platform.OS, platform.Arch)
		pkgs = append(pkgs, Package{Provider: p, Version: v, Platform: platform, Location: dl.String(),
			remote: &registryPackage{http: h, download: dl}, unsupported: !slices.Contains(rv.Platforms, platform)})
	}
	return pkgs, nil
}

// registryPackage fetches one release from a provider registry.
type registryPackage struct {
	http     *HTTP
	download *url.URL
}

// fetch downloads the release's zip into dir and authenticates it as
// Terraform does: the SHA256SUMS document must carry a detached OpenPGP
// signature by one of the registry's signing keys, and the zip's SHA-256
// must equal both the download document's shasum and the document's line
// for the file. Every hash in the signed document is then trusted and
// recorded ("zh:"), with the package's own "h1:".
func (r *registryPackage) fetch(ctx context.Context, pkg Package, dir string, progress Progress) (fetched, error) {
	meta, final, err := r.meta(ctx, pkg)
	if err != nil {
		return fetched{}, err
	}
	want, err := parseSHA256(meta.SHASum)
	if err != nil {
		return fetched{}, fmt.Errorf("registry response includes invalid SHA256 hash %q: %w", meta.SHASum, err)
	}
	zipURL, err := resolveRef(final, meta.DownloadURL)
	if err != nil {
		return fetched{}, err
	}
	entries, keyID, err := r.signedSums(ctx, pkg, meta, final)
	if err != nil {
		return fetched{}, err
	}
	filename := meta.Filename
	if filename == "" {
		filename = path.Base(zipURL.Path)
	}
	listed, ok := entries[filename]
	if !ok {
		return fetched{}, fmt.Errorf("checksum list has no SHA-256 hash for %q", filename)
	}
	if listed != want {
		return fetched{}, fmt.Errorf("checksum list has unexpected SHA-256 hash %x (expected %x)", listed, want)
	}
	zipPath, err := r.downloadZip(ctx, zipURL, dir, pkg, progress)
	if err != nil {
		return fetched{}, err
	}
	got, err := fileSHA256(zipPath)
	if err != nil {
		return fetched{}, err
	}
	if got != want {
		return fetched{}, fmt.Errorf("archive has incorrect checksum zh:%x (expected zh:%x)", got, want)
	}
	return fetched{zip: zipPath, hashes: sumsHashes(entries), auth: "self-signed, key ID " + keyID}, nil
}

// meta fetches the download document and the URL it was read from.
func (r *registryPackage) meta(ctx context.Context, pkg Package) (downloadMeta, *url.URL, error) {
	var meta downloadMeta
	body, final, err := r.http.getAPI(ctx, r.download)
	if errors.Is(err, errNotFound) {
		return meta, nil, fmt.Errorf("provider %s %s is not available for %s", pkg.Provider, pkg.Version, pkg.Platform)
	}
	if err != nil {
		return meta, nil, fmt.Errorf("could not query provider registry for %s: %w", pkg.Provider, err)
	}
	if err := json.Unmarshal(body, &meta); err != nil {
		return meta, nil, fmt.Errorf("invalid response from registry for %s: %w", pkg.Provider, err)
	}
	if meta.SHASumsURL == "" || meta.SHASumsSignatureURL == "" {
		return meta, nil, fmt.Errorf("the registry did not return the checksums and signature of %s %s: the release is unsigned", pkg.Provider, pkg.Version)
	}
	return meta, final, nil
}

// signedSums fetches SHA256SUMS and its detached signature, checks the
// signature against the document's signing keys and returns the parsed
// sums and the signing key's ID.
func (r *registryPackage) signedSums(ctx context.Context, pkg Package, meta downloadMeta, base *url.URL) (map[string][sha256.Size]byte, string, error) {
	sumsURL, err := resolveRef(base, meta.SHASumsURL)
	if err != nil {
		return nil, "", err
	}
	sigURL, err := resolveRef(base, meta.SHASumsSignatureURL)
	if err != nil {
		return nil, "", err
	}
	sums, _, err := r.http.getBytes(ctx, sumsURL)
	if err != nil {
		return nil, "", fmt.Errorf("failed to retrieve SHA256SUMS for %s %s: %w", pkg.Provider, pkg.Version, err)
	}
	sig, _, err := r.http.getBytes(ctx, sigURL)
	if err != nil {
		return nil, "", fmt.Errorf("failed to retrieve authentication signature for %s %s: %w", pkg.Provider, pkg.Version, err)
	}
	var armors []string
	for _, k := range meta.SigningKeys.GPGPublicKeys {
		armors = append(armors, k.ASCIIArmor)
	}
	keyID, err := checkSignature(armors, sums, sig)
	if err != nil {
		return nil, "", err
	}
	entries, err := ParseSHA256Sums(sums)
	return entries, keyID, err
}

// resolveRef resolves a URL in a registry response against the URL the
// response came from, as Terraform resolves relative download URLs.
func resolveRef(base *url.URL, ref string) (*url.URL, error) {
	u, err := base.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("registry response includes invalid URL %q: %w", ref, err)
	}
	return u, nil
}

func (r *registryPackage) downloadZip(ctx context.Context, u *url.URL, dir string, pkg Package, progress Progress) (string, error) {
	zipPath := filepath.Join(dir, "package.zip")
	if err := r.http.getFile(ctx, u, zipPath, progress); err != nil {
		return "", fmt.Errorf("failed to download %s %s: %w", pkg.Provider, pkg.Version, err)
	}
	return zipPath, nil
}
