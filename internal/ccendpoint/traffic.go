package ccendpoint

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// cloudControlTarget prefixes the X-Amz-Target of every Cloud Control call.
const cloudControlTarget = "CloudApiService."

// callsPath is where the endpoint answers its call counts (GET) and
// resets them (DELETE), beside the server's own test admin API.
const callsPath = "/_cairn/calls"

// traffic shapes and counts the Cloud Control calls an endpoint answers:
// each waits rtt before it is handled, as a call across a network does;
// beyond rate calls a second the excess is refused with
// ThrottlingException, as Cloud Control refuses it; and every call is
// counted by operation. Registry calls (ListTypes, DescribeType), STS and
// the admin API pass untouched and uncounted.
type traffic struct {
	next   http.Handler
	rtt    atomic.Int64 // time.Duration
	bucket *tokenBucket // nil: no limit
	now    func() time.Time

	mu        sync.Mutex
	calls     Calls
	throttled int
}

func newTraffic(next http.Handler, rtt time.Duration, rate float64) *traffic {
	t := &traffic{next: next, now: time.Now, calls: Calls{}}
	t.rtt.Store(int64(rtt))
	if rate > 0 {
		t.bucket = newTokenBucket(rate, time.Now())
	}
	return t
}

func (t *traffic) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	target := req.Header.Get("X-Amz-Target")
	if req.URL.Path == callsPath && target == "" {
		t.serveCalls(w, req)
		return
	}
	op, ok := strings.CutPrefix(target, cloudControlTarget)
	if !ok {
		t.next.ServeHTTP(w, req)
		return
	}
	if rtt := time.Duration(t.rtt.Load()); rtt > 0 {
		timer := time.NewTimer(rtt)
		select {
		case <-timer.C:
		case <-req.Context().Done():
			timer.Stop()
			return
		}
	}
	allowed := t.bucket == nil || t.bucket.take(t.now())
	t.mu.Lock()
	t.calls[op]++
	if !allowed {
		t.throttled++
	}
	t.mu.Unlock()
	if !allowed {
		writeThrottled(w)
		return
	}
	t.next.ServeHTTP(w, req)
}

// writeThrottled answers as Cloud Control answers a call over its rate:
// HTTP 400, the exception named in X-Amzn-ErrorType and in the body's
// __type (the SDK's retryer recognises ThrottlingException as a throttle).
func writeThrottled(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.Header().Set("X-Amzn-Requestid", uuid.NewString())
	w.Header().Set("X-Amzn-ErrorType", "ThrottlingException")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(`{"__type":"ThrottlingException","Message":"Rate exceeded"}`))
}

// callsReport is the JSON answer of GET /_cairn/calls.
type callsReport struct {
	Calls     Calls `json:"calls"`
	Throttled int   `json:"throttled"`
}

func (t *traffic) serveCalls(w http.ResponseWriter, req *http.Request) {
	switch req.Method {
	case http.MethodGet:
		calls, throttled := t.counts()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(callsReport{Calls: calls, Throttled: throttled})
	case http.MethodDelete:
		t.reset()
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "GET, DELETE")
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// counts returns a copy of the call counts and the number throttled.
func (t *traffic) counts() (Calls, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(Calls, len(t.calls))
	for op, n := range t.calls {
		out[op] = n
	}
	return out, t.throttled
}

func (t *traffic) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls, t.throttled = Calls{}, 0
}

// Calls counts the Cloud Control calls an endpoint received, by operation
// (GetResource, ListResources, ...), throttled ones included.
type Calls map[string]int

// Total is the number of calls of every operation.
func (c Calls) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// String lists the counts by operation name: "GetResource 3, ListResources 1".
func (c Calls) String() string {
	ops := make([]string, 0, len(c))
	for op := range c {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	parts := make([]string, len(ops))
	for i, op := range ops {
		parts[i] = fmt.Sprintf("%s %d", op, c[op])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// tokenBucket admits rate calls a second on average, with bursts of up
// to one second's worth (at least one call).
type tokenBucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newTokenBucket(rate float64, now time.Time) *tokenBucket {
	burst := max(rate, 1)
	return &tokenBucket{rate: rate, burst: burst, tokens: burst, last: now}
}

// take spends a token if there is one.
func (b *tokenBucket) take(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(b.burst, b.tokens+d.Seconds()*b.rate)
		b.last = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
