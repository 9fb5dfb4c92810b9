package boundaries

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Package is one package of the import graph, as go list reports it.
type Package struct {
	Path     string
	Dir      string
	Standard bool
	// Own is true for the packages of the module being checked.
	Own bool
	// Rel is an own package's directory from the module root, slash
	// separated ("internal/lifecycle"; "." for the root).
	Rel string
	// GoFiles are the non-test files, absolute.
	GoFiles []string
	// Imports are the non-test direct imports; TestImports those of the
	// package's _test.go files, in-package and external.
	Imports     []string
	TestImports []string
}

// Graph is a module's packages and everything they import.
type Graph struct {
	Module   string              // the module path
	Dir      string              // the module root
	Packages map[string]*Package // every package, by import path
	Own      []*Package          // the module's packages, sorted by path
}

// listed is the part of go list's JSON the checker reads.
type listed struct {
	ImportPath   string
	Dir          string
	Standard     bool
	DepOnly      bool
	GoFiles      []string
	CgoFiles     []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Module       *struct{ Path, Dir string }
	Error        *struct{ Err string }
}

// Load runs "go list -deps" once over every package of the module whose
// root is dir and returns the import graph, test imports included.
func Load(dir string) (*Graph, error) {
	cmd := exec.Command("go", "list", "-e", "-deps",
		"-json=ImportPath,Dir,Standard,DepOnly,GoFiles,CgoFiles,Imports,TestImports,XTestImports,Module,Error",
		"./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps ./... in %s: %v\n%s", dir, err, stderr.Bytes())
	}
	return decode(dir, out)
}

func decode(dir string, out []byte) (*Graph, error) {
	g := &Graph{Dir: dir, Packages: map[string]*Package{}}
	var errs []error
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var l listed
		if err := dec.Decode(&l); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		if l.Error != nil {
			errs = append(errs, fmt.Errorf("%s: %s", l.ImportPath, l.Error.Err))
		}
		p := &Package{
			Path:        l.ImportPath,
			Dir:         l.Dir,
			Standard:    l.Standard,
			Own:         !l.DepOnly,
			Imports:     l.Imports,
			TestImports: append(l.TestImports, l.XTestImports...),
		}
		for _, f := range append(l.GoFiles, l.CgoFiles...) {
			p.GoFiles = append(p.GoFiles, filepath.Join(l.Dir, f))
		}
		if p.Own {
			if l.Module == nil {
				return nil, fmt.Errorf("%s is in no module", l.ImportPath)
			}
			g.Module = l.Module.Path
			g.Own = append(g.Own, p)
		}
		g.Packages[p.Path] = p
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for _, p := range g.Own {
		p.Rel = "."
		if p.Path != g.Module {
			p.Rel = strings.TrimPrefix(p.Path, g.Module+"/")
		}
	}
	sort.Slice(g.Own, func(i, j int) bool { return g.Own[i].Path < g.Own[j].Path })
	return g, nil
}

// short is how messages name a package: an own package from the module
// root, any other by its import path.
func (g *Graph) short(path string) string {
	if path == g.Module {
		return "."
	}
	if rel, ok := strings.CutPrefix(path, g.Module+"/"); ok {
		return rel
	}
	return path
}
