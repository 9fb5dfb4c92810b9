package configs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/internal/hclscan"
	"github.com/hashicorp/hcl/v2"
)

// MaxFileSize is the largest configuration or variables file Cairn reads:
// 16 MiB, some 300,000 resource blocks. hashicorp/hcl holds every token of
// a file at once, so a parse takes many times the file's size in memory,
// and tens of megabytes of garbage would take gigabytes.
const MaxFileSize = 16 << 20

// ErrFileTooLarge is returned by ReadSourceFile for a file larger than
// MaxFileSize.
var ErrFileTooLarge = errors.New("file too large")

// ReadSourceFile reads a configuration or variables file, refusing one
// larger than MaxFileSize without reading more of it than that.
func ReadSourceFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, fmt.Errorf("%w: more than %d MiB", ErrFileTooLarge, MaxFileSize>>20)
	}
	return src, nil
}

// CheckSource returns a diagnostic when src must not be given to the HCL
// parsers: larger than MaxFileSize, not UTF-8 text, or nested deeper than
// hclscan.MaxDepth. JSON-syntax files are named *.json.
//
// Text that is not UTF-8 is refused at its first bad byte rather than
// parsed: the parser reports every bad byte, and random bytes took seconds
// and gigabytes to list, which nobody reads.
func CheckSource(name string, src []byte) *hcl.Diagnostic {
	start := hcl.InitialPos
	if len(src) > MaxFileSize {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "File too large",
			Detail: fmt.Sprintf("%s is %d bytes; Cairn reads configuration and variables files of at most %d MiB. "+
				"Split it into several files.", name, len(src), MaxFileSize>>20),
			Subject: &hcl.Range{Filename: name, Start: start, End: start},
		}
	}
	if !utf8.Valid(src) {
		at := firstInvalidUTF8(src)
		pos := posOf(src, at)
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid character encoding",
			Detail: fmt.Sprintf("%s is not UTF-8 text: the byte at %d:%d is not part of a UTF-8 character. "+
				"Save the file as UTF-8, or remove it if it is not configuration.", name, pos.Line, pos.Column),
			Subject: &hcl.Range{Filename: name, Start: pos, End: posOf(src, at+1)},
		}
	}
	syntax := hclscan.Native
	if isJSONName(name) {
		syntax = hclscan.JSON
	}
	return hclscan.CheckDepth(src, name, start, syntax)
}

func isJSONName(name string) bool {
	return len(name) >= 5 && name[len(name)-5:] == ".json"
}

func firstInvalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(src)
}

// posOf returns the position of byte offset off, counting columns in
// characters as hcl does.
func posOf(src []byte, off int) hcl.Pos {
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	return hcl.Pos{
		Line:   1 + bytes.Count(src[:off], []byte("\n")),
		Column: 1 + utf8.RuneCount(src[lineStart:off]),
		Byte:   off,
	}
}
