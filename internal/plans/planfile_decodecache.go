package plans

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// decodeCache holds what one plan file read has decoded, by its text:
// value types, the keys of sensitive paths' index steps, and the
// resources of instance addresses. Every value records its type twice
// (beside it and inside its msgpack), and the changes of a big plan share
// a handful of types, keys and resources, so decoding each distinct one
// once takes most of the work out of reading a plan: go-cty's JSON type
// parser alone was two thirds of it, HCL's traversal parser a quarter of
// what was left. A cache belongs to one read and one goroutine, so
// nothing decoded outlives the file it came from, and it needs no lock.
type decodeCache struct {
	types     map[string]cty.Type
	keys      map[string]map[string]cty.Value // by key type JSON, then key JSON
	resources map[string]addrs.AbsResource
}

func newDecodeCache() *decodeCache {
	return &decodeCache{types: map[string]cty.Type{}, keys: map[string]map[string]cty.Value{}, resources: map[string]addrs.AbsResource{}}
}

// parseType returns the type raw describes. The result only depends on
// raw, so a cached type is the one parsing would give.
func (dc *decodeCache) parseType(raw []byte) (cty.Type, error) {
	if ty, ok := dc.types[string(raw)]; ok {
		return ty, nil
	}
	ty, err := ctyjson.UnmarshalType(raw)
	if err != nil {
		return cty.NilType, err
	}
	dc.types[string(raw)] = ty
	return ty, nil
}

// pathKey returns the index key raw describes, of the type typeRaw
// describes; like a type, a key only depends on the JSON.
func (dc *decodeCache) pathKey(typeRaw, raw []byte) (cty.Value, error) {
	if k, ok := dc.keys[string(typeRaw)][string(raw)]; ok {
		return k, nil
	}
	kt, err := dc.parseType(typeRaw)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid path key type: %w", err)
	}
	k, err := ctyjson.Unmarshal(raw, kt)
	if err != nil {
		return cty.NilVal, fmt.Errorf("invalid path key: %w", err)
	}
	if dc.keys[string(typeRaw)] == nil {
		dc.keys[string(typeRaw)] = map[string]cty.Value{}
	}
	dc.keys[string(typeRaw)][string(raw)] = k
	return k, nil
}

// instanceAddr parses a resource instance address as
// addrs.ParseAbsResourceInstanceStr does. An address that ends in an
// instance key written as the key's String writes it, [42] or ["name"]
// with no character HCL would unescape, is its resource's address with
// that key, and its resource is parsed once per read.
func (dc *decodeCache) instanceAddr(s string) (addrs.AbsResourceInstance, bool) {
	if prefix, key, ok := splitInstanceKey(s); ok {
		if res, ok := dc.resource(prefix); ok {
			return res.Instance(key), true
		}
	}
	a, ds := addrs.ParseAbsResourceInstanceStr(s)
	return a, !ds.HasErrors()
}

// resource parses a resource address as addrs.ParseAbsResourceStr does,
// once per read: the instance addresses and the dependencies of a plan's
// changes name the same resources over and over (a chain of N records
// N²/2 dependencies naming N resources).
func (dc *decodeCache) resource(s string) (addrs.AbsResource, bool) {
	if r, ok := dc.resources[s]; ok {
		return r, true
	}
	r, ds := addrs.ParseAbsResourceStr(s)
	if ds.HasErrors() {
		return addrs.AbsResource{}, false
	}
	r.Module = slices.Clip(r.Module) // shared: appending must copy
	dc.resources[s] = r
	return r, true
}

// splitInstanceKey splits s into the text before its final index and the
// instance key that index holds, when the key is a decimal integer
// without leading zeros that fits an int, or a quoted string of
// printable ASCII without quotes, backslashes or template sequences (no $
// or %): text HCL reads as exactly the characters written. The text
// before must be names, dots, indexes and plain quoted strings only, so
// appending the index cannot change how HCL reads it (as a comment
// left open would).
func splitInstanceKey(s string) (string, addrs.InstanceKey, bool) {
	i := strings.LastIndexByte(s, '[')
	if i <= 0 || !strings.HasSuffix(s, "]") || strings.Trim(s[:i], addressChars) != "" {
		return "", nil, false
	}
	k := s[i+1 : len(s)-1]
	if len(k) >= 2 && k[0] == '"' && k[len(k)-1] == '"' && plainString(k[1:len(k)-1]) {
		return s[:i], addrs.StringKey(k[1 : len(k)-1]), true
	}
	if len(k) == 0 || len(k) > 9 || (k[0] == '0' && len(k) > 1) || strings.Trim(k, "0123456789") != "" {
		return "", nil, false
	}
	n, _ := strconv.Atoi(k)
	return s[:i], addrs.IntKey(n), true
}

// addressChars are the characters of the resource part of an address
// whose instance key splitInstanceKey takes off.
const addressChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.[]\""

// plainString reports whether s is printable ASCII that an HCL quoted
// string holds verbatim.
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '$' || c == '%' {
			return false
		}
	}
	return true
}
