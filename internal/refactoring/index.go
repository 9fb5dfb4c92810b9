package refactoring

import "github.com/cairn-iac/cairn/internal/addrs"

// endpointIndex finds, among many statements' endpoints, those that
// overlap a given one without comparing every pair: a configuration with
// 10,000 moved blocks would otherwise cost 10^8 comparisons in ordering,
// in looking for cycles and in looking for ambiguity.
//
// Endpoints that can overlap name the same resource or module call, so
// they share a bucket; within it, an instance endpoint overlaps only the
// same instance or a whole endpoint.
type endpointIndex struct {
	buckets map[string]*endpointBucket
}

type endpointBucket struct {
	all      []int            // every statement, in the order added
	whole    []int            // statements whose endpoint is not an instance
	instance map[string][]int // instance endpoint's String → statements
}

func newEndpointIndex() *endpointIndex {
	return &endpointIndex{buckets: map[string]*endpointBucket{}}
}

// add records statement i's endpoint e. Statements must be added in
// increasing i, so that overlapping returns them in that order.
func (x *endpointIndex) add(e addrs.MoveEndpoint, i int) {
	k := bucketKey(e)
	b := x.buckets[k]
	if b == nil {
		b = &endpointBucket{instance: map[string][]int{}}
		x.buckets[k] = b
	}
	b.all = append(b.all, i)
	if e.Instance {
		s := e.String()
		b.instance[s] = append(b.instance[s], i)
	} else {
		b.whole = append(b.whole, i)
	}
}

// overlapping calls f, in increasing order, with each statement whose
// endpoint overlaps e (see overlaps).
func (x *endpointIndex) overlapping(e addrs.MoveEndpoint, f func(i int)) {
	b := x.buckets[bucketKey(e)]
	if b == nil {
		return
	}
	if !e.Instance {
		for _, i := range b.all {
			f(i)
		}
		return
	}
	// Merge the two increasing lists.
	whole, same := b.whole, b.instance[e.String()]
	for len(whole) > 0 || len(same) > 0 {
		if len(whole) == 0 || (len(same) > 0 && same[0] < whole[0]) {
			f(same[0])
			same = same[1:]
		} else {
			f(whole[0])
			whole = whole[1:]
		}
	}
}

// bucketKey names what an endpoint is about, without its instance key:
// the resource (in its module instance path) or the module call (in its
// parent's path). The two kinds never share a key.
func bucketKey(e addrs.MoveEndpoint) string {
	if !e.IsModule() {
		return e.Path.String() + "|" + e.Resource.String()
	}
	n := len(e.Path)
	return e.Path[:n-1].String() + "|module." + e.Path[n-1].Name
}
