package awscc

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
)

// check decides whether a type's pages can answer reads, on its first
// page that holds an object: usable is false when the page's entry for an
// object lacks a property GetResource returns for it (the type lists
// identifiers only, or a summary); verified says the comparison was made,
// now or on an earlier page. A warmup read of an object on the page is
// the GetResource answer when there is one; otherwise the page's first
// object is read, one call counted against the type's budget. It is
// called during a fetch, without tc.mu held.
func (tc *typeCache) check(ctx context.Context, src pageSource, out *cloudcontrol.ListResourcesOutput) (usable, verified bool) {
	tc.mu.Lock()
	if tc.verified {
		tc.mu.Unlock()
		return true, true
	}
	var listed, read *string
	for _, rd := range out.ResourceDescriptions {
		if p, ok := tc.probes[aws.ToString(rd.Identifier)]; ok {
			listed, read = rd.Properties, p
			break
		}
	}
	if read == nil && len(out.ResourceDescriptions) > 0 {
		tc.calls++
	}
	tc.mu.Unlock()
	if read == nil {
		if len(out.ResourceDescriptions) == 0 {
			return true, false
		}
		rd := out.ResourceDescriptions[0]
		p, err := src.getProperties(ctx, tc.name, aws.ToString(rd.Identifier))
		if err != nil {
			// Gone since the listing, or the read failed: nothing learnt.
			return true, false
		}
		listed, read = rd.Properties, p
	}
	l, err := decodeModel(listed)
	if err != nil {
		return false, true
	}
	r, err := decodeModel(read)
	if err != nil {
		return false, true
	}
	return holdsEvery(l, r), true
}

// holdsEvery reports whether listed holds every property read holds, at every
// level. Values may differ (the object may have changed between the two
// calls); a property missing is what makes a list unusable.
func holdsEvery(listed, read any) bool {
	switch r := read.(type) {
	case map[string]any:
		l, ok := listed.(map[string]any)
		if !ok {
			return false
		}
		for k, rv := range r {
			lv, ok := l[k]
			if !ok || !holdsEvery(lv, rv) {
				return false
			}
		}
	case []any:
		l, ok := listed.([]any)
		if !ok {
			return false
		}
		for i := 0; i < len(r) && i < len(l); i++ {
			if !holdsEvery(l[i], r[i]) {
				return false
			}
		}
	}
	return true
}
