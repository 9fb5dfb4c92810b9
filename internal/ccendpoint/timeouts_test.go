package ccendpoint

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStalledClientsAreCut connects real clients that stall (in the
// headers, in the body, idle between requests) to an endpoint with short
// timeouts: the endpoint closes each connection. Without timeouts it
// held them for ever. The test bounds its own wait only so that a broken
// endpoint fails instead of hanging; nothing asserts on time.
func TestStalledClientsAreCut(t *testing.T) {
	const short = 200 * time.Millisecond
	e := start(t, Options{Timeouts: Timeouts{Header: short, Read: short, Write: short, Idle: short}})
	addr := strings.TrimPrefix(e.URL, "http://")
	const call = "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: CloudApiService.ListResourceRequests\r\nContent-Type: application/x-amz-json-1.0\r\n"
	cases := map[string]struct {
		send string
		// answered: the endpoint answers before closing.
		answered bool
	}{
		"stalls in the headers": {send: "POST / HTTP/1.1\r\nHost: x\r\n"},
		"stalls in the body":    {send: call + "Content-Length: 100\r\n\r\n{\"Max"},
		"idles after a request": {send: call + "Content-Length: 2\r\n\r\n{}", answered: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tc.send); err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(30 * time.Second))
			r := bufio.NewReader(conn)
			if tc.answered {
				resp, err := http.ReadResponse(r, nil)
				if err != nil {
					t.Fatalf("no answer: %v", err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			// Whatever the endpoint wrote, it then closes: reading
			// ends in EOF (or a reset), not in this test's deadline.
			_, err = io.Copy(io.Discard, r)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the endpoint kept the stalled connection open (read: %v)", err)
			}
		})
	}
}
