package plans

import (
	"bytes"
	"compress/gzip"
	"errors"
	"testing"
)

// TestReadFileInflationLimit: a plan file that inflates past the limit is
// refused with ErrPlanFileTooLarge once the limit is read, not inflated
// whole (a 3 MB file reached 4 GB), while a plan within it reads.
func TestReadFileInflationLimit(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	small := gz([]byte(`{"magic":"cairn-plan-v2","graph":{"nodes":[{"op":74}]},"prior_state":{"version":4}}`))
	inflated := func(n int) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
		// Whitespace is valid JSON to the decoder, which would read it all.
		zw.Write(bytes.Repeat([]byte(" "), n))
		zw.Close()
		return buf.Bytes()
	}
	tests := map[string]struct {
		file    []byte
		limit   int64
		wantErr error
	}{
		"plan within the limit":   {file: small, limit: 64 << 10},
		"inflates past the limit": {file: inflated(1 << 20), limit: 64 << 10, wantErr: ErrPlanFileTooLarge},
		"exactly the limit":       {file: inflated(64 << 10), limit: 64 << 10, wantErr: nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := readFile(bytes.NewReader(tc.file), tc.limit)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
				return
			}
			if errors.Is(err, ErrPlanFileTooLarge) {
				t.Fatalf("refused a file within the limit: %v", err)
			}
		})
	}
	if MaxPlanFileInflated != 512<<20 {
		t.Errorf("MaxPlanFileInflated is %d; update docs/guarantees.md with the new value", MaxPlanFileInflated)
	}
}
