package awscc

import (
	"context"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
)

// DefaultListCacheTTL is how long a page of ListResources answers reads
// unless the provider is told otherwise (Provider.WithListCacheTTL): long
// enough for one plan or apply to refresh every object of a type from the
// pages it fetched, short enough that the next command sees the cloud
// afresh.
const DefaultListCacheTTL = 5 * time.Minute

// listCache answers the reads of a refresh from ListResources pages where
// that saves calls. One ListResources page describes up to 100 objects
// with their properties, where GetResource describes one: refreshing
// 1,000 objects of a type takes about a dozen calls instead of 1,000.
//
// It is demand-driven and bounded, so that it never costs much more than
// reading object by object, even in an account that holds 100,000
// objects of a type of which the configuration reads 3:
//
//   - The first warmup reads of a type go through GetResource. Their
//     answers are kept as probes (see below).
//   - After that a read whose object is not in a fetched page fetches the
//     type's next page, one fetch in flight per type (concurrent readers
//     wait for it rather than issuing calls of their own), as long as the
//     type's calls stay within 5/4 of its reads. A hit costs no call and
//     so earns room for more pages; in the worst case (every page a miss)
//     the calls of a type stay under 1.25 × its reads + 2. Once fewer
//     than half a page of what was listed is left unread, the next page
//     is read ahead from the same budget (readAhead).
//   - A read answered by no page falls back to GetResource: when the
//     budget is spent, and when the list is exhausted (no NextToken) and
//     the object is absent, so that an object is declared gone only on
//     GetResource's word.
//
// Guards keep its answers exactly those of GetResource:
//
//   - A type whose schema has no list handler, or whose list handler needs
//     a resource model (a parent's identifier), is never listed; one whose
//     ListResources fails is read object by object for a ttl, then listed
//     again (the failure may have been throttling that outlasted the
//     retries; a long-lived controller should not give up for good).
//   - Some types list identifiers only, or fewer properties than they
//     read. The first page fetched is checked against a GetResource
//     answer of one of its objects (a warmup read's when the page holds
//     one, else one GetResource call): a page entry lacking a property
//     the read has marks the type unusable.
//   - Write-only properties are in neither answer; the caller carries them
//     over from prior state the same way for both.
//
// Freshness: the pages of a type form a walk, from the first page to the
// last. An entry answers one read: a second read of the same object is a
// new refresh (a controller's next poll, a second plan in one process),
// so it ends the walk and the reads from then on start a new one. The
// whole walk also expires ttl after its first page was requested. Create, update and delete replace
// or drop the entry of the object they change (store, forget); a page
// fetched while an object changed never overwrites that object's entry.
//
// A nil *listCache is a disabled cache: every read is a GetResource. The
// cache belongs to one configured runtime; nothing is shared between
// provider configurations.
type listCache struct {
	ttl time.Duration
	now func() time.Time
	// warmup is how many reads of a type go through GetResource before
	// pages are fetched.
	warmup int

	mu    sync.Mutex
	types map[string]*typeCache
}

// defaultWarmup is the number of reads of a type answered by GetResource
// before the cache lists it: a type read once or twice never costs a
// ListResources call.
const defaultWarmup = 3

// listPageSize is the MaxResults of every ListResources call, the API's
// largest page.
const listPageSize = 100

// newListCache returns a cache whose pages live ttl; nil (disabled) when
// ttl is not positive.
func newListCache(ttl time.Duration) *listCache {
	if ttl <= 0 {
		return nil
	}
	return &listCache{ttl: ttl, now: time.Now, warmup: defaultWarmup, types: map[string]*typeCache{}}
}

// pageSource is the part of the runtime the cache calls.
type pageSource interface {
	// getProperties is one GetResource call.
	getProperties(ctx context.Context, typeName, id string) (*string, error)
	// listPage is one ListResources call.
	listPage(ctx context.Context, typeName string, token *string) (*cloudcontrol.ListResourcesOutput, error)
}

// typeCache is the cache of one resource type.
type typeCache struct {
	name string

	mu sync.Mutex
	// reads and calls count this type's reads and the calls they made
	// (GetResource and ListResources): the budget.
	reads, calls int
	// unusable is set once the type's pages lack properties its reads
	// have: every read then calls GetResource.
	unusable bool
	// failedAt is when its last ListResources failed: until a ttl has
	// passed, every read calls GetResource.
	failedAt time.Time
	// verified is set once a page entry was found to hold every property
	// GetResource returned for the same object.
	verified bool
	// probes are the properties warmup reads returned, by identifier.
	probes map[string]*string
	walk   walk
	// fetch is non-nil while a page is being fetched; it is closed when
	// the fetch ends.
	fetch chan struct{}
	// touched are the objects stored or forgotten while a fetch was in
	// flight: its page may predate the change, so it does not overwrite
	// them.
	touched map[string]bool
}

// walk is one pass over a type's pages.
type walk struct {
	// gen tells walks apart: a fetch that ends after its walk expired is
	// dropped.
	gen int
	// started is when its first page was requested; zero before.
	started time.Time
	// next is the NextToken of the page to fetch next.
	next *string
	// exhausted is set once a page came back without a NextToken.
	exhausted bool
	// entries are the properties of every object seen, by identifier.
	entries map[string]*entry
	// listed counts the entries its pages brought, hits the reads they
	// answered: what is left unread decides when to read ahead.
	listed, hits int
}

// read returns the properties of object id of type typeName, from a page
// when one holds it, else from GetResource; listable says the type's
// schema has a list handler that needs no resource model. The error is
// GetResource's (ResourceNotFoundException for an object that is gone), or
// ctx's when it ended while waiting for a page.
func (c *listCache) read(ctx context.Context, src pageSource, typeName string, listable bool, id string) (*string, error) {
	if c == nil || !listable {
		return src.getProperties(ctx, typeName, id)
	}
	return c.typeCache(typeName).read(ctx, src, c, id)
}

// typeCache returns the cache of a type, made on first use.
func (c *listCache) typeCache(typeName string) *typeCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	tc, ok := c.types[typeName]
	if !ok {
		tc = &typeCache{name: typeName, probes: map[string]*string{}}
		c.types[typeName] = tc
	}
	return tc
}

// lookup returns the type's cache if it has one, without making it.
func (c *listCache) lookup(typeName string) *typeCache {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.types[typeName]
}

// store records the properties a create or update read back for id,
// replacing what a page said of it.
func (c *listCache) store(typeName, id string, props *string) {
	if tc := c.lookup(typeName); tc != nil {
		tc.set(id, props)
	}
}

// forget drops what the cache holds of id, before it is updated or
// deleted.
func (c *listCache) forget(typeName, id string) {
	if tc := c.lookup(typeName); tc != nil {
		tc.set(id, nil)
	}
}

// set replaces (props non-nil) or drops (nil) the entry of id.
func (tc *typeCache) set(id string, props *string) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.fetch != nil {
		tc.touched[id] = true
	}
	delete(tc.probes, id)
	if tc.walk.entries == nil {
		return
	}
	if props == nil {
		delete(tc.walk.entries, id)
		return
	}
	tc.walk.entries[id] = &entry{props: props}
}

// entry is what a walk holds of one object.
type entry struct {
	props *string
	// served is set once a read was answered with it: a second read of
	// the object is a new refresh (the controller's next poll), which
	// the walk is too old for.
	served bool
}

// read is listCache.read for one type: a warmup GetResource, else a hit
// in the walk's pages, else (after waiting for the fetch in flight, or
// fetching the next page while the budget allows) GetResource.
func (tc *typeCache) read(ctx context.Context, src pageSource, c *listCache, id string) (*string, error) {
	tc.mu.Lock()
	tc.reads++
	now := c.now()
	if !tc.failedAt.IsZero() && now.Sub(tc.failedAt) >= c.ttl {
		tc.failedAt = time.Time{}
	}
	if tc.reads <= c.warmup && !tc.unusable {
		tc.calls++
		tc.mu.Unlock()
		props, err := src.getProperties(ctx, tc.name, id)
		if err == nil {
			tc.mu.Lock()
			tc.probes[id] = props
			tc.mu.Unlock()
		}
		return props, err
	}
	for !tc.unusable && tc.failedAt.IsZero() {
		now = c.now()
		tc.expire(now, c.ttl)
		if en, ok := tc.walk.entries[id]; ok && !en.served {
			en.served = true
			tc.walk.hits++
			tc.readAhead(ctx, src, c)
			tc.mu.Unlock()
			return en.props, nil
		} else if ok {
			// Read again: a new pass over the objects has begun.
			tc.walk = walk{gen: tc.walk.gen + 1}
			continue
		}
		if ch := tc.fetch; ch != nil {
			tc.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			tc.mu.Lock()
			continue
		}
		if tc.walk.exhausted || !tc.affordable() {
			break
		}
		tc.fetchPage(ctx, src, now)
	}
	tc.calls++
	tc.mu.Unlock()
	return src.getProperties(ctx, tc.name, id)
}

// affordable reports whether one more call (a page) keeps the type within
// its budget of 5/4 of a call per read.
func (tc *typeCache) affordable() bool {
	return tc.calls+1 <= tc.reads+tc.reads/4
}

// expire ends the walk once ttl has passed since its first page was
// requested.
func (tc *typeCache) expire(now time.Time, ttl time.Duration) {
	if !tc.walk.started.IsZero() && now.Sub(tc.walk.started) >= ttl {
		tc.walk = walk{gen: tc.walk.gen + 1}
	}
}

// fetchPage fetches the walk's next page and records it; tc.mu is held on
// entry and on return, and released during the calls. A failed list
// (unless ctx ended: the reader's own deadline) ends the walk and stops
// listing for a ttl; a page lacking properties marks the type unusable.
func (tc *typeCache) fetchPage(ctx context.Context, src pageSource, now time.Time) {
	ch := make(chan struct{})
	tc.fetch, tc.touched = ch, map[string]bool{}
	if tc.walk.started.IsZero() {
		tc.walk.started, tc.walk.entries = now, map[string]*entry{}
	}
	gen, token := tc.walk.gen, tc.walk.next
	tc.calls++
	tc.mu.Unlock()

	out, err := src.listPage(ctx, tc.name, token)
	var usable, verified bool
	if err == nil {
		usable, verified = tc.check(ctx, src, out)
	}

	tc.mu.Lock()
	defer func() {
		tc.fetch = nil
		close(ch)
	}()
	switch {
	case err != nil && ctx.Err() != nil:
		return
	case err != nil:
		tc.failedAt = now
		tc.walk = walk{gen: tc.walk.gen + 1}
		return
	case !usable:
		tc.unusable = true
		tc.walk = walk{gen: tc.walk.gen + 1}
		return
	case gen != tc.walk.gen:
		// The walk expired while the page was in flight.
		return
	}
	tc.verified = tc.verified || verified
	if !tc.verified {
		// The page could not be checked (its probe vanished meanwhile):
		// its entries are not trusted, and the walk goes on.
		tc.walk.next, tc.walk.exhausted = out.NextToken, aws.ToString(out.NextToken) == ""
		return
	}
	for _, rd := range out.ResourceDescriptions {
		if id := aws.ToString(rd.Identifier); id != "" && !tc.touched[id] {
			tc.walk.entries[id] = &entry{props: rd.Properties}
			tc.walk.listed++
		}
	}
	tc.walk.next, tc.walk.exhausted = out.NextToken, aws.ToString(out.NextToken) == ""
}

// readAheadTimeout bounds a page fetched ahead, which no reader waits
// for yet and so no reader's deadline bounds.
const readAheadTimeout = time.Minute

// readAhead starts fetching the walk's next page in the background once
// fewer than half a page of what the pages listed is left unread; tc.mu
// is held. Without it every page costs its readers a round trip in turn:
// the engine's -parallelism readers all wait on the same missing page,
// and nothing else runs meanwhile. A page read ahead is paid from the
// same budget as a miss's, so the bound on a type's calls holds.
func (tc *typeCache) readAhead(ctx context.Context, src pageSource, c *listCache) {
	if !tc.wantsAhead() {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), readAheadTimeout)
	go func() {
		defer cancel()
		tc.mu.Lock()
		defer tc.mu.Unlock()
		if tc.wantsAhead() {
			tc.fetchPage(ctx, src, c.now())
		}
	}()
}

// wantsAhead reports whether the walk should fetch its next page before
// a reader misses it; tc.mu is held.
func (tc *typeCache) wantsAhead() bool {
	w := &tc.walk
	return tc.fetch == nil && !w.started.IsZero() && !w.exhausted && tc.verified &&
		w.listed-w.hits <= listPageSize/2 && tc.affordable()
}
