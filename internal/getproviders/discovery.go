package getproviders

import (
	"context"
	"net/url"
	"sync"
)

// discovery is one host's service discovery, done once per HTTP however
// many providers of the host are looked up, in parallel or not, as
// Terraform's disco caches it for a run: a registry with five providers
// answers one discovery request, not five.
type discovery struct {
	once sync.Once
	base *url.URL
	err  error
}

// providersBase is registryBase, remembered per host. A failure is
// given to the lookups waiting on it and then forgotten.
func (h *HTTP) providersBase(ctx context.Context, host string) (*url.URL, error) {
	v, _ := h.discovered.LoadOrStore(host, &discovery{})
	d := v.(*discovery)
	d.once.Do(func() { d.base, d.err = h.registryBase(ctx, host) })
	if d.err != nil {
		h.discovered.CompareAndDelete(host, d) // the next lookup tries again
		return nil, d.err
	}
	base := *d.base // a copy: callers may change theirs
	return &base, nil
}
