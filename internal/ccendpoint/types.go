package ccendpoint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

// schemaSource finds a type's schema document: the last directory that
// defines it, else the built-in schemas. Directory files may have any
// name; their typeName decides.
type schemaSource struct {
	byType map[string]string // type name → file, from the directories

	mu      sync.Mutex
	builtin map[string][]byte // built-in documents read so far
}

// newSchemaSource indexes the directories (later ones win).
func newSchemaSource(dirs []string) (*schemaSource, error) {
	s := &schemaSource{byType: map[string]string{}, builtin: map[string][]byte{}}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			if _, err := os.Stat(dir); err != nil {
				return nil, fmt.Errorf("schema directory: %w", err)
			}
		}
		for _, f := range files {
			name, err := typeNameOf(f)
			if err != nil {
				return nil, err
			}
			s.byType[name] = f
		}
	}
	return s, nil
}

func typeNameOf(file string) (string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var head struct {
		TypeName string `json:"typeName"`
	}
	if err := json.Unmarshal(src, &head); err != nil || head.TypeName == "" {
		return "", fmt.Errorf("%s is not a CloudFormation resource schema (no typeName)", file)
	}
	return head.TypeName, nil
}

// schema returns the document of typeName, or an error naming where it
// was looked for.
func (s *schemaSource) schema(typeName string) ([]byte, error) {
	if f, ok := s.byType[typeName]; ok {
		return os.ReadFile(f)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if doc, ok := s.builtin[typeName]; ok {
		return doc, nil
	}
	docs, err := cfnregistry.Builtin(func(n string) bool { return n == typeName })
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("type %s is not among the built-in CloudFormation schemas or the endpoint's schema directories", typeName)
	}
	s.builtin[typeName] = docs[0].Data
	return docs[0].Data, nil
}

// typeNames lists every type the source can serve, sorted.
func (s *schemaSource) typeNames() ([]string, error) {
	seen := map[string]bool{}
	for n := range s.byType {
		seen[n] = true
	}
	builtin, err := cfnregistry.BuiltinTypeNames()
	if err != nil {
		return nil, err
	}
	for _, n := range builtin {
		seen[n] = true
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// matches reports whether a type name has the given prefix, as the
// registry's TypeNamePrefix filter matches.
func matches(name, prefix string) bool { return strings.HasPrefix(name, prefix) }
