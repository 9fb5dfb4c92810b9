package statemgr

import (
	"encoding/hex"
	"errors"
	"hash/crc32"
	"strconv"
)

// A version 2 journal line is framed as
//
//	{"seq":N,BODY,"crc":"XXXXXXXX"}
//
// where BODY is `"object":{…}` or `"output":{…}` and XXXXXXXX is the
// CRC-32C (hex) of everything before `,"crc"`. The line stays one JSON
// object, so people can read it with ordinary tools.

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

const crcSuffixLen = len(`,"crc":"`) + 8 + len(`"}`)

// appendFramed appends the framed line for body with sequence number seq,
// and its newline, to dst.
func appendFramed(dst []byte, seq uint64, body []byte) []byte {
	start := len(dst)
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, ',')
	dst = append(dst, body...)
	sum := crc32.Checksum(dst[start:], castagnoli)
	dst = append(dst, `,"crc":"`...)
	dst = hex.AppendEncode(dst, []byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)})
	return append(dst, '"', '}', '\n')
}

// checkCRC verifies the checksum that ends a framed line (without its
// newline).
func checkCRC(line []byte) error {
	n := len(line) - crcSuffixLen
	if n < 0 || string(line[n:n+8]) != `,"crc":"` || string(line[len(line)-2:]) != `"}` {
		return errors.New("the line has no checksum")
	}
	var got [4]byte
	if _, err := hex.Decode(got[:], line[n+8:len(line)-2]); err != nil {
		return errors.New("the line's checksum is not hexadecimal")
	}
	sum := crc32.Checksum(line[:n], castagnoli)
	if got != [4]byte{byte(sum >> 24), byte(sum >> 16), byte(sum >> 8), byte(sum)} {
		return errors.New("the line's checksum does not match its content")
	}
	return nil
}
