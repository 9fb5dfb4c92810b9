package awscc

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/google/go-cmp/cmp"
)

// pages is a pageSource over objects of one type held in memory, pages
// of listPageSize in identifier order, counting its calls.
type pages struct {
	mu      sync.Mutex
	objects map[string]string
	// listed, when set, is what a page says of an object instead of its
	// properties (a list that omits some).
	listed  func(id, props string) string
	listErr error
	gets    atomic.Int64
	lists   atomic.Int64
	// inFlight and maxInFlight count concurrent ListResources calls.
	inFlight, maxInFlight atomic.Int64
	// listDelay makes every list take this long, so readers pile up.
	listDelay time.Duration
	// sorted are the identifiers in order, nil after a change.
	sorted []string
}

// set changes (props non-empty) or deletes an object.
func (p *pages) set(id, props string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sorted = nil
	if props == "" {
		delete(p.objects, id)
		return
	}
	p.objects[id] = props
}

func newPages(n int) *pages {
	p := &pages{objects: map[string]string{}}
	for i := range n {
		id := fmt.Sprintf("obj-%06d", i)
		p.objects[id] = fmt.Sprintf(`{"Name":%q,"Size":%d,"Tags":[{"Key":"k","Value":"v"}]}`, id, i)
	}
	return p
}

func (p *pages) getProperties(_ context.Context, _, id string) (*string, error) {
	p.gets.Add(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	props, ok := p.objects[id]
	if !ok {
		return nil, &cctypes.ResourceNotFoundException{Message: aws.String(id + " not found")}
	}
	return &props, nil
}

func (p *pages) listPage(_ context.Context, _ string, token *string) (*cloudcontrol.ListResourcesOutput, error) {
	p.lists.Add(1)
	n := p.inFlight.Add(1)
	defer p.inFlight.Add(-1)
	for {
		m := p.maxInFlight.Load()
		if n <= m || p.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	if p.listDelay > 0 {
		time.Sleep(p.listDelay)
	}
	if p.listErr != nil {
		return nil, p.listErr
	}
	ids := p.ids()
	p.mu.Lock()
	defer p.mu.Unlock()
	start := 0
	if token != nil {
		start = sort.SearchStrings(ids, *token)
	}
	out := &cloudcontrol.ListResourcesOutput{}
	for _, id := range ids[start:min(start+listPageSize, len(ids))] {
		props := p.objects[id]
		if p.listed != nil {
			props = p.listed(id, props)
		}
		out.ResourceDescriptions = append(out.ResourceDescriptions, cctypes.ResourceDescription{Identifier: aws.String(id), Properties: aws.String(props)})
	}
	if start+listPageSize < len(ids) {
		out.NextToken = aws.String(ids[start+listPageSize])
	}
	return out, nil
}

// ids are the identifiers in order; the caller must not change them.
func (p *pages) ids() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sorted == nil {
		p.sorted = make([]string, 0, len(p.objects))
		for id := range p.objects {
			p.sorted = append(p.sorted, id)
		}
		sort.Strings(p.sorted)
	}
	return p.sorted
}

// readAll reads ids through the cache, in order, and returns what each
// read answered (properties, or "error: ..." for an error).
func readAll(t *testing.T, c *listCache, src pageSource, listable bool, ids []string) []string {
	t.Helper()
	out := make([]string, len(ids))
	for i, id := range ids {
		props, err := c.read(context.Background(), src, "AWS::Test::Widget", listable, id)
		out[i] = answer(props, err)
	}
	return out
}

func answer(props *string, err error) string {
	var nf *cctypes.ResourceNotFoundException
	switch {
	case errors.As(err, &nf):
		return "not found"
	case err != nil:
		return "error: " + err.Error()
	}
	return aws.ToString(props)
}

// direct is what GetResource answers for ids.
func direct(p *pages, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		p.mu.Lock()
		props, ok := p.objects[id]
		p.mu.Unlock()
		out[i] = props
		if !ok {
			out[i] = "not found"
		}
	}
	return out
}

// TestListCacheReads checks the calls the cache makes and that every read
// answers what GetResource answers.
func TestListCacheReads(t *testing.T) {
	shuffled := func(ids []string) []string {
		r := rand.New(rand.NewPCG(1, 2))
		out := slices.Clone(ids)
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}
	omitSize := func(id, _ string) string { return fmt.Sprintf(`{"Name":%q}`, id) }
	tests := map[string]struct {
		reason    string
		objects   int
		read      func(ids []string) []string
		listable  bool
		disabled  bool
		listed    func(id, props string) string
		listErr   error
		wantGets  int64
		wantLists int64
		// maxCalls bounds gets+lists when the exact split depends on the
		// order of reads.
		maxCalls int64
	}{
		"few reads": {
			reason:  "A type read three times costs three GetResource calls and no list, however many objects the account holds.",
			objects: 100_000, listable: true,
			read:     func(ids []string) []string { return []string{ids[5], ids[50_000], ids[99_999]} },
			wantGets: 3, wantLists: 0,
		},
		"every object": {
			reason:  "Reading all 1,000 objects in order costs the warmup reads, one probe and ten pages.",
			objects: 1000, listable: true,
			read:     func(ids []string) []string { return ids },
			wantGets: 3, wantLists: 10,
		},
		"every object shuffled": {
			reason:  "In any order, 1,000 reads cost a few dozen calls: hits pay for pages.",
			objects: 1000, listable: true,
			read:     shuffled,
			maxCalls: 60,
		},
		"sparse reads of a huge type": {
			reason:  "200 reads scattered over 100,000 objects mostly miss the pages; calls stay within 5/4 of the reads (plus the probe).",
			objects: 100_000, listable: true,
			read:     func(ids []string) []string { return shuffled(ids)[:200] },
			maxCalls: 200 + 200/4 + 2,
		},
		"absent object": {
			reason:  "An object in no page of an exhausted list is declared gone only on GetResource's word.",
			objects: 10, listable: true,
			read: func(ids []string) []string {
				return append(slices.Clone(ids[:5]), "obj-gone", ids[9])
			},
			wantGets: 3 + 1, wantLists: 1,
		},
		"list omits properties": {
			reason:  "A page lacking a property GetResource returns makes the type unusable: one list, then reads object by object.",
			objects: 300, listable: true, listed: omitSize,
			read:     func(ids []string) []string { return ids },
			wantGets: 300, wantLists: 1,
		},
		"list fails": {
			reason:  "A type whose ListResources fails (its handler needs a parent) is read object by object after one try, for a TTL.",
			objects: 300, listable: true, listErr: &cctypes.InvalidRequestException{Message: aws.String("parent required")},
			read:     func(ids []string) []string { return ids },
			wantGets: 300, wantLists: 1,
		},
		"not listable": {
			reason:  "A type whose schema has no usable list handler is never listed.",
			objects: 300, listable: false,
			read:     func(ids []string) []string { return ids },
			wantGets: 300, wantLists: 0,
		},
		"disabled": {
			reason:  "A TTL of zero disables the cache.",
			objects: 300, listable: true, disabled: true,
			read:     func(ids []string) []string { return ids },
			wantGets: 300, wantLists: 0,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := newPages(tc.objects)
			p.listed, p.listErr = tc.listed, tc.listErr
			c := newListCache(time.Minute)
			if tc.disabled {
				c = newListCache(0)
			}
			ids := tc.read(slices.Clone(p.ids()))
			got := readAll(t, c, p, tc.listable, ids)
			if diff := cmp.Diff(direct(p, ids), got); diff != "" {
				t.Errorf("%s\nanswers differ from GetResource's (-want +got):\n%s", tc.reason, diff)
			}
			gets, lists := p.gets.Load(), p.lists.Load()
			if tc.maxCalls > 0 {
				if gets+lists > tc.maxCalls {
					t.Errorf("%s\n%d GetResource + %d ListResources calls, want at most %d", tc.reason, gets, lists, tc.maxCalls)
				}
				return
			}
			if gets != tc.wantGets || lists != tc.wantLists {
				t.Errorf("%s\n%d GetResource and %d ListResources calls, want %d and %d", tc.reason, gets, lists, tc.wantGets, tc.wantLists)
			}
		})
	}
}

// TestListCacheFreshness checks expiry and the entries that create,
// update and delete replace or drop.
func TestListCacheFreshness(t *testing.T) {
	p := newPages(10)
	ids := p.ids()
	now := time.Unix(0, 0)
	c := newListCache(time.Minute)
	c.now = func() time.Time { return now }
	readAll(t, c, p, true, ids[:8])
	if p.lists.Load() != 1 {
		t.Fatalf("%d lists, want 1", p.lists.Load())
	}

	// Changed behind the cache's back: within the TTL the page answers
	// the first read of an object.
	p.set(ids[8], `{"Name":"changed"}`)
	if got := readAll(t, c, p, true, ids[8:9])[0]; got == `{"Name":"changed"}` {
		t.Errorf("read within the TTL went to the API")
	}
	// Past the TTL, the walk starts again.
	now = now.Add(time.Minute)
	p.set(ids[9], `{"Name":"changed"}`)
	if got := readAll(t, c, p, true, ids[9:10])[0]; got != `{"Name":"changed"}` {
		t.Errorf("read past the TTL answered %s", got)
	}
	if p.lists.Load() != 2 {
		t.Errorf("%d lists, want 2", p.lists.Load())
	}
	// A second read of an object is a new refresh (a controller's next
	// poll): it starts a new walk, whatever the TTL.
	p.set(ids[9], `{"Name":"changed again"}`)
	if got := readAll(t, c, p, true, ids[9:10])[0]; got != `{"Name":"changed again"}` {
		t.Errorf("second read answered %s", got)
	}
	if p.lists.Load() != 3 {
		t.Errorf("%d lists, want 3", p.lists.Load())
	}

	// An update's read-back replaces the entry; a delete drops it, and the
	// read that follows asks GetResource.
	updated := `{"Name":"updated"}`
	c.store("AWS::Test::Widget", ids[2], &updated)
	if got := readAll(t, c, p, true, ids[2:3])[0]; got != updated {
		t.Errorf("read after store answered %s", got)
	}
	p.set(ids[3], "")
	c.forget("AWS::Test::Widget", ids[3])
	gets := p.gets.Load()
	if got := readAll(t, c, p, true, ids[3:4])[0]; got != "not found" {
		t.Errorf("read after delete answered %s", got)
	}
	if p.gets.Load() != gets+1 {
		t.Errorf("a forgotten object was not confirmed with GetResource")
	}
}

// TestListCacheConcurrentReaders checks that readers arriving together
// wait for one page fetch rather than each fetching or reading, and get
// GetResource's answers.
func TestListCacheConcurrentReaders(t *testing.T) {
	p := newPages(1000)
	p.listDelay = 5 * time.Millisecond
	ids := p.ids()
	c := newListCache(time.Minute)
	got := make([]string, len(ids))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for i, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			props, err := c.read(context.Background(), p, "AWS::Test::Widget", true, id)
			got[i] = answer(props, err)
		}()
	}
	wg.Wait()
	if diff := cmp.Diff(direct(p, ids), got); diff != "" {
		t.Errorf("answers differ from GetResource's (-want +got):\n%s", diff)
	}
	if m := p.maxInFlight.Load(); m != 1 {
		t.Errorf("%d list calls in flight at once, want 1", m)
	}
	if calls := p.gets.Load() + p.lists.Load(); calls > 100 {
		t.Errorf("%d GetResource + %d ListResources calls for 1,000 concurrent reads", p.gets.Load(), p.lists.Load())
	}
}

// TestListCacheFetchDuringChange checks that a page fetched while an
// object changed does not overwrite what the change stored.
func TestListCacheFetchDuringChange(t *testing.T) {
	p := newPages(10)
	ids := p.ids()
	c := newListCache(time.Minute)
	readAll(t, c, p, true, ids[:3])
	started := make(chan struct{})
	release := make(chan struct{})
	src := &blockingList{pages: p, started: started, release: release}
	done := make(chan string)
	go func() {
		props, err := c.read(context.Background(), src, "AWS::Test::Widget", true, ids[3])
		done <- answer(props, err)
	}()
	<-started
	updated := `{"Name":"updated"}`
	c.store("AWS::Test::Widget", ids[5], &updated)
	close(release)
	<-done
	if got := readAll(t, c, p, true, ids[5:6])[0]; got != updated {
		t.Errorf("the page fetched during the update overwrote its read-back: %s", got)
	}
}

// blockingList holds its first list call until released.
type blockingList struct {
	*pages
	once             sync.Once
	started, release chan struct{}
}

func (b *blockingList) listPage(ctx context.Context, typeName string, token *string) (*cloudcontrol.ListResourcesOutput, error) {
	b.once.Do(func() {
		close(b.started)
		<-b.release
	})
	return b.pages.listPage(ctx, typeName, token)
}

// BenchmarkListCacheRead reads 1,000 objects through the cache and
// reports the calls made.
func BenchmarkListCacheRead(b *testing.B) {
	for _, name := range []string{"cache", "no-cache"} {
		b.Run(name, func(b *testing.B) {
			p := newPages(1000)
			ids := p.ids()
			b.ReportAllocs()
			for b.Loop() {
				ttl := time.Minute
				if name == "no-cache" {
					ttl = 0
				}
				c := newListCache(ttl)
				for _, id := range ids {
					if _, err := c.read(context.Background(), p, "AWS::Test::Widget", true, id); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(p.gets.Load())/float64(b.N), "gets/op")
			b.ReportMetric(float64(p.lists.Load())/float64(b.N), "lists/op")
		})
	}
}

// TestListCacheRetriesFailedList checks that a type whose list failed is
// read object by object for a TTL, then listed again.
func TestListCacheRetriesFailedList(t *testing.T) {
	p := newPages(300)
	p.listErr = &cctypes.ThrottlingException{Message: aws.String("Rate exceeded")}
	ids := p.ids()
	now := time.Unix(0, 0)
	c := newListCache(time.Minute)
	c.now = func() time.Time { return now }
	readAll(t, c, p, true, ids[:100])
	if gets, lists := p.gets.Load(), p.lists.Load(); gets != 100 || lists != 1 {
		t.Fatalf("%d GetResource and %d ListResources calls while the list fails, want 100 and 1", gets, lists)
	}
	p.listErr = nil
	now = now.Add(time.Minute)
	got := readAll(t, c, p, true, ids[100:])
	if diff := cmp.Diff(direct(p, ids[100:]), got); diff != "" {
		t.Errorf("answers differ from GetResource's (-want +got):\n%s", diff)
	}
	if lists := p.lists.Load(); lists != 4 {
		t.Errorf("%d ListResources calls, want 4: the failed one, then the walk again from its first page to its third", lists)
	}
}

// TestWithListCacheTTL checks the option: a copy with the lifetime set,
// the original unchanged, and a non-positive lifetime disabling the cache
// of the runtimes it configures.
func TestWithListCacheTTL(t *testing.T) {
	p, err := New(testSchemas)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		ttl      time.Duration
		wantTTL  time.Duration
		disabled bool
	}{
		"default":  {ttl: -1, wantTTL: DefaultListCacheTTL},
		"deferred": {ttl: -1, wantTTL: DefaultListCacheTTL},
		"poll":     {ttl: 30 * time.Second, wantTTL: 30 * time.Second},
		"zero":     {ttl: 0, wantTTL: 0, disabled: true},
		"negative": {ttl: -time.Second, wantTTL: 0, disabled: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			q := p
			switch name {
			case "default":
			case "deferred":
				// The served plugins build their provider this way.
				q = deferredFrom(p.Catalog())
			default:
				q = p.WithListCacheTTL(tc.ttl)
			}
			if q.listCacheTTL != tc.wantTTL {
				t.Errorf("lifetime %s, want %s", q.listCacheTTL, tc.wantTTL)
			}
			if p.listCacheTTL != DefaultListCacheTTL {
				t.Errorf("the original's lifetime changed to %s", p.listCacheTTL)
			}
			// Through the engine: a refresh of 6 widgets tries a list
			// (the fake's pages hold identifiers only, so the reads fall
			// back to GetResource) unless the cache is disabled.
			fake := newFake()
			q = q.WithListCacheTTL(q.listCacheTTL)
			q.testAPI, q.testBackoff = fake, &fastPolls
			h, ds := enginetest.New(map[string]string{"main.tf": `
provider "awscc" { region = "eu-west-1" }
resource "awscc_test_widget" "w" {
  count       = 6
  widget_name = "w${count.index}"
}
`})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			h.Providers[Addr] = q.Factory()
			mustApply(t, h, plans.NormalMode)
			lists := fake.count("ListResources")
			if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
				t.Fatalf("plan has changes: %v", actions(p))
			}
			if listed := fake.count("ListResources") > lists; listed == tc.disabled {
				t.Errorf("refresh listed: %v, want %v", listed, !tc.disabled)
			}
		})
	}
}

// deferredFrom is a deferred provider serving catalog's types, as the
// plugin binaries build one from their cached index.
func deferredFrom(catalog *cfnschema.Catalog) *Provider {
	var types []DeferredType
	for _, rt := range catalog.Types() {
		types = append(types, DeferredType{TypeName: rt.TypeName, TerraformName: rt.TerraformName, PluralName: rt.PluralName})
	}
	return NewDeferred(types, func(typeName string) (*cfnschema.ResourceType, error) {
		return catalog.Type(typeName), nil
	}, nil, "test")
}

// TestListCacheReadsAhead checks that once fewer than half a page of what
// was listed is left unread, the next page is fetched with no read
// having missed it, and that the reads it then answers cost no call.
func TestListCacheReadsAhead(t *testing.T) {
	p := newPages(1000)
	c := newListCache(time.Minute)
	ids := p.ids()
	// Three warmup reads, then 57 hits of the first page: 43 of its 100
	// entries are left unread.
	if got, want := readAll(t, c, p, true, ids[:60]), direct(p, ids[:60]); !slices.Equal(got, want) {
		t.Fatalf("reads answered %v, want %v", got, want)
	}
	for deadline := time.Now().Add(10 * time.Second); p.lists.Load() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d ListResources calls after reading 57 of the first page's 100 entries, want the second page read ahead", p.lists.Load())
		}
	}
	gets, lists := p.gets.Load(), p.lists.Load()
	tc := c.typeCache("AWS::Test::Widget")
	tc.mu.Lock()
	fetching := tc.fetch
	tc.mu.Unlock()
	if fetching != nil {
		<-fetching
	}
	if got, want := readAll(t, c, p, true, ids[100:140]), direct(p, ids[100:140]); !slices.Equal(got, want) {
		t.Fatalf("reads of the second page answered %v, want %v", got, want)
	}
	if p.gets.Load() != gets || p.lists.Load() != lists {
		t.Errorf("reading the page read ahead cost %d GetResource and %d ListResources calls, want none",
			p.gets.Load()-gets, p.lists.Load()-lists)
	}
}
