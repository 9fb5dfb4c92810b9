package plans

import (
	"testing"
)

// TestValueRejectsHugeLengths: a value claiming two billion elements must
// fail fast, not allocate for them.
func TestValueRejectsHugeLengths(t *testing.T) {
	typ := []byte(`["list","string"]`)
	b := []byte{0x92, 0xc4, byte(len(typ))}
	b = append(b, typ...)
	b = append(b, 0xdd, 0x7f, 0xff, 0xff, 0xff)
	ev := valueV1{Type: []byte(`["list","string"]`), Msgpack: b}
	if _, err := ev.decode(newDecodeCache()); err == nil {
		t.Fatal("no error for a truncated value with a huge length")
	}
}
