package modinstall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"

	goversion "github.com/hashicorp/go-version"
	tfaddr "github.com/hashicorp/terraform-registry-address"
)

// registryClient speaks the module registry protocol: service discovery
// (/.well-known/terraform.json, "modules.v1"), the version list, and the
// download endpoint whose X-Terraform-Get names the package.
type registryClient struct {
	http *http.Client
	// discovered holds each host's modules.v1 URL, asked for once
	// however many modules of the host a walk installs (a failure is
	// forgotten once its waiters have it).
	discovered sync.Map // host -> *discovery
}

// discovery is one host's service discovery, done once.
type discovery struct {
	once sync.Once
	base *url.URL
	err  error
}

// modulesBase is modulesURL, remembered per host, as Terraform's disco
// remembers it for a run.
func (c *registryClient) modulesBase(ctx context.Context, host string) (*url.URL, error) {
	v, _ := c.discovered.LoadOrStore(host, &discovery{})
	d := v.(*discovery)
	d.once.Do(func() { d.base, d.err = c.modulesURL(ctx, host) })
	if d.err != nil {
		c.discovered.CompareAndDelete(host, d) // the next lookup tries again
		return nil, d.err
	}
	base := *d.base // a copy: callers may change theirs
	return &base, nil
}

// maxRegistryBody bounds what Cairn reads of a registry answer.
const maxRegistryBody = 4 << 20

// modulesURL discovers the modules.v1 base URL of a registry host.
func (c *registryClient) modulesURL(ctx context.Context, host string) (*url.URL, error) {
	disco := &url.URL{Scheme: "https", Host: host, Path: "/.well-known/terraform.json"}
	var doc map[string]any
	if _, err := c.getJSON(ctx, disco, &doc); err != nil {
		return nil, fmt.Errorf("failed to discover services of %s: %w", host, err)
	}
	raw, ok := doc["modules.v1"].(string)
	if !ok {
		return nil, fmt.Errorf("host %s does not provide a module registry", host)
	}
	base, err := disco.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("host %s gives an invalid modules.v1 URL %q", host, raw)
	}
	if !strings.HasSuffix(base.Path, "/") {
		base.Path += "/"
	}
	return base, nil
}

// versions lists the versions the registry has of a module package.
func (c *registryClient) versions(ctx context.Context, base *url.URL, pkg tfaddr.ModulePackage) ([]string, error) {
	u := base.JoinPath(pkg.Namespace, pkg.Name, pkg.TargetSystem, "versions")
	var doc struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	status, err := c.getJSON(ctx, u, &doc)
	if status == http.StatusNotFound {
		return nil, errModuleNotFound
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range doc.Modules {
		for _, v := range m.Versions {
			out = append(out, v.Version)
		}
	}
	return out, nil
}

// location asks where version v of a package is: X-Terraform-Get (or a
// JSON location), resolved against the download URL.
func (c *registryClient) location(ctx context.Context, base *url.URL, pkg tfaddr.ModulePackage, v string) (string, error) {
	u := base.JoinPath(pkg.Namespace, pkg.Name, pkg.TargetSystem, v, "download")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
		return "", fmt.Errorf("%s answered %s", u, resp.Status)
	}
	loc := resp.Header.Get("X-Terraform-Get")
	if loc == "" && resp.StatusCode == http.StatusOK {
		var doc struct {
			Location string `json:"location"`
		}
		if err := json.NewDecoder(io.LimitReader(resp.Body, maxRegistryBody)).Decode(&doc); err == nil {
			loc = doc.Location
		}
	}
	if loc == "" {
		return "", fmt.Errorf("%s gave no X-Terraform-Get location", u)
	}
	return resolveLocation(resp.Request.URL, loc)
}

// resolveLocation resolves a relative location ("/x.tar.gz", "./x")
// against the URL it came from; go-getter addresses pass as they are.
func resolveLocation(from *url.URL, loc string) (string, error) {
	if !strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "./") && !strings.HasPrefix(loc, "../") {
		return loc, nil
	}
	u, err := from.Parse(loc)
	if err != nil {
		return "", fmt.Errorf("invalid location %q: %w", loc, err)
	}
	return u.String(), nil
}

func (c *registryClient) getJSON(ctx context.Context, u *url.URL, into any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("%s answered %s", u, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxRegistryBody)).Decode(into); err != nil {
		return resp.StatusCode, fmt.Errorf("%s answered with invalid JSON: %w", u, err)
	}
	return resp.StatusCode, nil
}

var errModuleNotFound = fmt.Errorf("module not found")

// selectVersion picks the newest version meeting the constraint; a
// pre-release only when the constraint names it exactly, as Terraform
// selects.
func selectVersion(available []string, constraint string) (string, error) {
	var cons goversion.Constraints
	if constraint != "" {
		c, err := goversion.NewConstraint(constraint)
		if err != nil {
			return "", err
		}
		cons = c
	}
	var best *goversion.Version
	for _, raw := range available {
		v, err := goversion.NewVersion(raw)
		if err != nil {
			continue
		}
		if v.Prerelease() != "" && !namesExactly(constraint, v) {
			continue
		}
		if cons.Check(v) && (best == nil || v.GreaterThan(best)) {
			best = v
		}
	}
	if best == nil {
		return "", nil
	}
	return best.String(), nil
}

func namesExactly(constraint string, v *goversion.Version) bool {
	c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(constraint), "="))
	return c == v.Original() || c == v.String()
}

// joinSubdirs joins a registry address's subdirectory onto the one its
// package location gave.
func joinSubdirs(a, b string) string {
	parts := slices.DeleteFunc([]string{a, b}, func(s string) bool { return s == "" })
	if len(parts) == 0 {
		return ""
	}
	return path.Join(parts...)
}
