package cfnregistry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// ReadDir returns the TYPE.json documents of a schema cache directory
// whose type names keep reports true for (all when keep is nil), sorted by
// file name. A directory that does not exist (or dir "") holds nothing;
// other files are ignored.
func ReadDir(dir string, keep func(typeName string) bool) ([]Document, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the CloudFormation schema cache: %w", err)
	}
	var out []Document
	for _, e := range entries {
		typeName, ok := TypeNameOfFile(e.Name())
		if !ok || !e.Type().IsRegular() || (keep != nil && !keep(typeName)) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading the CloudFormation schema cache: %w", err)
		}
		out = append(out, Document{TypeName: typeName, Name: p, Data: data})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
