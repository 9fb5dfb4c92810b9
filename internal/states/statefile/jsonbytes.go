package statefile

import (
	"encoding/json"
	"unicode/utf8"
)

// This file holds the two byte-level JSON transformations that make reading
// and writing large states cheap. They reproduce exactly what encoding/json
// does to a json.RawMessage inside a document written with
// json.MarshalIndent(v, "", "  ") (Terraform's writer): whitespace outside
// strings removed, '<', '>', '&', U+2028 and U+2029 escaped as \u003c,
// \u003e, \u0026, \u2028, \u2029, and the result re-indented at its depth.
// Both assume valid JSON; callers validate first, or got the bytes from
// encoding/json, which did.

const hexDigits = "0123456789abcdef"

// escapeAt reports how many bytes starting at src[i] encoding/json
// replaces with an escape: one for an HTML character, three for the UTF-8
// encoding of U+2028 or U+2029, zero for anything else.
func escapeAt(src []byte, i int) int {
	switch src[i] {
	case '<', '>', '&':
		return 1
	case 0xE2:
		if i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			return 3
		}
	}
	return 0
}

// appendEscape appends the escape for the character escapeAt found at
// src[i].
func appendEscape(dst, src []byte, i int) []byte {
	if c := src[i]; c != 0xE2 {
		return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
	}
	return append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
}

// inStringSpecial marks the bytes a scan inside a JSON string must stop
// at: the end quote, the escape character, and the start of anything
// appendEscape rewrites. All other bytes are copied as they are.
var inStringSpecial = [256]bool{'"': true, '\\': true, '<': true, '>': true, '&': true, 0xE2: true}

// scanString copies the inside of a JSON string that starts at src[i],
// just after the opening quote. It returns the updated output and copy
// start, and the position of the closing quote.
func scanString(dst, src []byte, start, i int) ([]byte, int, int) {
	for i < len(src) {
		for i < len(src) && !inStringSpecial[src[i]] {
			i++
		}
		if i >= len(src) {
			break
		}
		switch src[i] {
		case '"':
			return dst, start, i
		case '\\':
			i += 2 // the escaped byte cannot end the string
			continue
		}
		if n := escapeAt(src, i); n > 0 {
			dst = appendEscape(append(dst, src[start:i]...), src, i)
			start = i + n
			i += n
			continue
		}
		i++
	}
	return dst, start, i
}

// appendString appends the quoted string s with the escaping that
// encoding/json applies. The fast path covers the printable ASCII that
// almost every name, key and address consists of (provider addresses
// contain quotes); anything else goes through encoding/json itself.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // cannot fail for a string
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', c)
			start = i + 1
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendCompact appends src without insignificant whitespace and with the
// HTML escapes applied. For valid JSON that is exactly what encoding/json
// makes of a json.RawMessage.
//
// It also keeps invalid JSON invalid, so that it can run before validation:
// whitespace is removed only next to a structural character ({ } [ ] , :)
// or at either end, where it can never be what separates two tokens (1 2
// stays 1 2, never 12), and bytes inside strings are kept or replaced by
// equivalent escapes.
func appendCompact(dst, src []byte) []byte {
	start := 0
	var prev byte // last byte outside whitespace; 0 at the start
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			dst, start, i = scanString(dst, src, start, i+1)
			prev = '"'
		case ' ', '\t', '\n', '\r':
			j := skipSpace(src, i)
			if i == 0 || j == len(src) || isStructural(prev) || isStructural(src[j]) {
				dst = append(dst, src[start:i]...)
				start = j
			}
			i = j - 1
		default:
			prev = c
		}
	}
	return append(dst, src[start:]...)
}

func isStructural(c byte) bool {
	switch c {
	case '{', '}', '[', ']', ',', ':':
		return true
	}
	return false
}

// appendIndented appends valid JSON src indented as json.MarshalIndent
// with an indent of two spaces would at the given depth: one element per
// line, "key": value, and empty objects and arrays kept as {} and [].
func appendIndented(dst, src []byte, depth int) []byte {
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			dst, start, i = scanString(dst, src, start, i+1)
			continue
		case ' ', '\t', '\n', '\r', '{', '[', '}', ']', ',', ':':
		default:
			continue // part of a number or a literal
		}
		dst = append(dst, src[start:i]...)
		start = i + 1
		switch c {
		case '{', '[':
			dst = append(dst, c)
			if j := skipSpace(src, i+1); j < len(src) && (src[j] == '}' || src[j] == ']') {
				dst = append(dst, src[j])
				i, start = j, j+1
			} else {
				depth++
				dst = newline(dst, depth)
			}
		case '}', ']':
			depth--
			dst = append(newline(dst, depth), c)
		case ',':
			dst = newline(append(dst, ','), depth)
		case ':':
			dst = append(dst, ':', ' ')
		}
	}
	return append(dst, src[start:]...)
}

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// indentSpaces is enough spaces for any depth a state file reaches in
// practice; deeper levels append in chunks.
const indentSpaces = "                                                                "

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(indentSpaces))
		dst = append(dst, indentSpaces[:k]...)
		n -= k
	}
	return dst
}
