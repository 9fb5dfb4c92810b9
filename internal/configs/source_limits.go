package configs

import (
	"errors"
	"fmt"
	"io"
	"os"

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
// parsers: larger than MaxFileSize, or nested deeper than hclscan.MaxDepth.
// JSON-syntax files are named *.json.
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
	syntax := hclscan.Native
	if isJSONName(name) {
		syntax = hclscan.JSON
	}
	return hclscan.CheckDepth(src, name, start, syntax)
}

func isJSONName(name string) bool {
	return len(name) >= 5 && name[len(name)-5:] == ".json"
}
