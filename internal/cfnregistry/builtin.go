package cfnregistry

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// archive is schemas.zip: one TYPE.json per type (AWS_S3_Bucket.json),
// each compressed on its own so a run inflates only the types it uses;
// written by scripts/refresh-cfn-schemas.sh.
//
//go:embed schemas.zip
var archive []byte

// Document is one resource schema document.
type Document struct {
	// TypeName is the CloudFormation type name, AWS::S3::Bucket.
	TypeName string
	// Name names the document in diagnostics ("built-in AWS_S3_Bucket.json").
	Name string
	Data []byte
}

// Builtin returns the built-in schema documents whose type names keep
// reports true for (every document when keep is nil), sorted by file name.
// Only kept documents are decompressed.
func Builtin(keep func(typeName string) bool) ([]Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, fmt.Errorf("reading built-in CloudFormation schemas: %w", err)
	}
	var out []Document
	for _, f := range zr.File {
		typeName, ok := TypeNameOfFile(path.Base(f.Name))
		if !ok || !f.Mode().IsRegular() || (keep != nil && !keep(typeName)) {
			continue
		}
		data, err := readZipFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading built-in CloudFormation schema %s: %w", f.Name, err)
		}
		out = append(out, Document{TypeName: typeName, Name: "built-in " + path.Base(f.Name), Data: data})
	}
	sort.Slice(out, func(i, j int) bool { return FileName(out[i].TypeName) < FileName(out[j].TypeName) })
	return out, nil
}

func readZipFile(f *zip.File) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, int64(f.UncompressedSize64)+1))
}

// BuiltinTypeNames lists the built-in types without decompressing any
// schema.
func BuiltinTypeNames() ([]string, error) {
	var names []string
	_, err := Builtin(func(typeName string) bool {
		names = append(names, typeName)
		return false
	})
	sort.Strings(names)
	return names, err
}

// BuiltinVersion identifies the built-in schemas: the archive's SHA-256,
// shortened. It changes whenever the archive is refreshed.
func BuiltinVersion() string {
	sum := sha256.Sum256(archive)
	return hex.EncodeToString(sum[:6])
}

// FileName is the file a type's schema is kept in: AWS::S3::Bucket →
// AWS_S3_Bucket.json, the CloudFormation registry's own convention.
func FileName(typeName string) string {
	return strings.ReplaceAll(typeName, "::", "_") + ".json"
}

// TypeNameOfFile inverts FileName; ok is false for a name that is not
// ORG_SERVICE_RESOURCE.json. (Type name parts are letters and digits, so
// the split is unambiguous.)
func TypeNameOfFile(name string) (typeName string, ok bool) {
	base, found := strings.CutSuffix(name, ".json")
	if !found {
		return "", false
	}
	parts := strings.Split(base, "_")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", false
	}
	return strings.Join(parts, "::"), true
}
