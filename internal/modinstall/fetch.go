package modinstall

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"

	getter "github.com/hashicorp/go-getter"
)

// Fetcher downloads module packages with go-getter, each package once:
// a second module key from the same package gets a copy of the first
// download, as Terraform's installer does. The zero value is not usable;
// NewFetcher makes one. A Fetcher is safe for concurrent use.
type Fetcher struct {
	client   *http.Client
	registry *registryClient

	mu      sync.Mutex
	fetched map[string]*flight // package address -> its first download
}

// flight is one package download, which concurrent calls for the same
// package wait for and then copy, so a package is fetched once however
// many module keys use it and whatever order they run in.
type flight struct {
	dir  string
	done chan struct{}
	err  error // set before done is closed
}

// settled reports whether the download is over; it does not block.
func (fl *flight) settled() bool {
	select {
	case <-fl.done:
		return true
	default:
		return false
	}
}

// Option configures a Fetcher.
type Option func(*Fetcher)

// WithHTTPClient sets the client for HTTP archives and the module
// registry protocol (tests pass one trusting their CA). The git getter
// runs the git binary, which reads its own configuration (GIT_SSL_CAINFO
// and the like) from the environment.
func WithHTTPClient(c *http.Client) Option { return func(f *Fetcher) { f.client = c } }

// NewFetcher returns a Fetcher; by default it uses a client like
// go-getter's own (no shared transport state with other users).
func NewFetcher(opts ...Option) *Fetcher {
	f := &Fetcher{fetched: map[string]*flight{}}
	for _, o := range opts {
		o(f)
	}
	if f.client == nil {
		f.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	f.registry = &registryClient{http: f.client}
	return f
}

// FetchPackage downloads the go-getter package address pkg (a Source's
// Package, already detected) into dir, which must not exist yet or be
// empty. A package fetched before by this Fetcher is copied instead.
func (f *Fetcher) FetchPackage(ctx context.Context, dir, pkg string) error {
	f.mu.Lock()
	fl := f.fetched[pkg]
	if fl == nil || fl.settled() && (fl.err != nil || fl.dir == dir || !isDir(fl.dir)) {
		fl = &flight{dir: dir, done: make(chan struct{})}
		f.fetched[pkg] = fl
		f.mu.Unlock()
		fl.err = f.get(ctx, dir, pkg)
		close(fl.done)
		return fl.err
	}
	f.mu.Unlock()
	select {
	case <-fl.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if fl.err != nil {
		return fl.err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	return copyTree(fl.dir, dir)
}

// downloadedInto is the directory pkg was downloaded into (copies
// elsewhere leave out dot files), or "" when it was not.
func (f *Fetcher) downloadedInto(pkg string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl := f.fetched[pkg]; fl != nil && fl.settled() && fl.err == nil {
		return fl.dir
	}
	return ""
}

// get downloads pkg into dir with go-getter; a failed download leaves
// nothing at dir.
func (f *Fetcher) get(ctx context.Context, dir, pkg string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	c := getter.Client{
		Ctx:           ctx,
		Src:           pkg,
		Dst:           dir,
		Pwd:           dir,
		Mode:          getter.ClientModeDir,
		Detectors:     []getter.Detector{}, // ParseSource detected already
		Decompressors: decompressors(),
		Getters:       f.getters(),
	}
	if err := c.Get(); err != nil {
		_ = os.RemoveAll(dir)
		return cleanGetterError(err)
	}
	return nil
}

// getters are Terraform's: file, git, hg, HTTP(S) with X-Terraform-Get
// followed at most 10 times, s3 and gcs.
func (f *Fetcher) getters() map[string]getter.Getter {
	httpGetter := &getter.HttpGetter{Client: f.client, Netrc: true, XTerraformGetLimit: 10}
	return map[string]getter.Getter{
		"file":  new(getter.FileGetter),
		"gcs":   new(getter.GCSGetter),
		"git":   new(getter.GitGetter),
		"hg":    new(getter.HgGetter),
		"s3":    new(getter.S3Getter),
		"http":  httpGetter,
		"https": httpGetter,
	}
}

// decompressors are the archive formats Terraform unpacks, by the
// extension of the URL's path or its ?archive= argument.
func decompressors() map[string]getter.Decompressor {
	return map[string]getter.Decompressor{
		"bz2":      new(getter.Bzip2Decompressor),
		"gz":       new(getter.GzipDecompressor),
		"xz":       new(getter.XzDecompressor),
		"zip":      new(getter.ZipDecompressor),
		"tar.bz2":  new(getter.TarBzip2Decompressor),
		"tar.tbz2": new(getter.TarBzip2Decompressor),
		"tar.gz":   new(getter.TarGzipDecompressor),
		"tgz":      new(getter.TarGzipDecompressor),
		"tar.xz":   new(getter.TarXzDecompressor),
		"txz":      new(getter.TarXzDecompressor),
	}
}

// userinfo matches the user information of a URL in a message; secretQuery
// the query arguments go-getter's S3 getter reads credentials from.
var (
	userinfo    = regexp.MustCompile(`://[^/\s@"']*@`)
	secretQuery = regexp.MustCompile(`(aws_access_key_secret|aws_access_token)=[^&\s"']*`)
)

// Redact returns text (a source address, a message) with credentials
// taken out: URL user information and the secret of an s3:: address.
// Printed lines and errors go through it; modules.json keeps the source
// as written, as Terraform's does.
func Redact(text string) string {
	return secretQuery.ReplaceAllString(userinfo.ReplaceAllString(text, "://"), "$1=REDACTED")
}

// cleanGetterError keeps go-getter's message, which names the command or
// URL that failed, with credentials redacted.
func cleanGetterError(err error) error {
	return errors.New(Redact(err.Error()))
}

// Fetch installs one module source into dst, the package directory
// (removed first if it exists), and returns the module's directory: dst
// joined with the source's subdirectory. For a registry source, version
// is the constraint and selected the version installed; other sources
// refuse a version. Local sources are refused: their directory is the
// caller's to resolve. This is the installer for front ends other than
// "cairn init". Calls may run concurrently with distinct destinations;
// errors are for the user, with credentials redacted, and a failed call
// leaves nothing at dst.
func (f *Fetcher) Fetch(ctx context.Context, source, version, dst string) (dir, selected string, err error) {
	src, err := ParseSource(source)
	if err != nil {
		return "", "", err
	}
	switch src.Kind {
	case Local:
		return "", "", fmt.Errorf("%q is a local path: there is nothing to fetch", source)
	case Registry:
		src, selected, err = f.resolveRegistry(ctx, src, version, func(string, string) {})
		if err != nil {
			return "", "", err
		}
	default:
		if version != "" {
			return "", "", fmt.Errorf("cannot apply a version constraint to %q because it doesn't come from a module registry", source)
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return "", "", err
	}
	if err := f.FetchPackage(ctx, dst, src.Package); err != nil {
		return "", "", err
	}
	rel, err := subdirIn(dst, ".", src.Subdir)
	if err != nil {
		_ = os.RemoveAll(dst)
		return "", "", err
	}
	return filepath.Join(dst, filepath.FromSlash(rel)), selected, nil
}
