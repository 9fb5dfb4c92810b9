package configs

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"golang.org/x/sync/errgroup"
)

// LoadDir loads the module in dir: every *.tf and *.tf.json file directly
// in it (and OpenTofu's *.tofu and *.tofu.json, each hiding the .tf file
// of the same name) (subdirectories are not read), in file-name order, and then the
// local modules it calls, recursively. Ranges in the module and its
// diagnostics name files relative to dir ("main.tf",
// "modules/net/main.tf"), so messages stay short and the same when the
// configuration is loaded again from a plan file.
//
// The result is never nil: when there are errors it holds whatever could be
// decoded, for callers that want to show more than the first problem.
func LoadDir(dir string) (*Module, diags.Diagnostics) {
	return loadTree(dir, diskSource{root: dir}, nil)
}

// LoadDirInstalled is LoadDir for a configuration whose non-local module
// calls "init" installed: inst says where each is. With nil inst it is
// LoadDir.
func LoadDirInstalled(dir string, inst *InstalledModules) (*Module, diags.Diagnostics) {
	return loadTree(dir, diskSource{root: dir}, inst)
}

// LoadModuleDir loads the one module in sub, a directory relative to
// root in slash form, without the modules it calls: what a module
// installer reads to find the calls to install. Ranges name files
// relative to root, as LoadDir's do.
func LoadModuleDir(root, sub string) (*Module, diags.Diagnostics) {
	files, ds := diskSource{root: root}.files(sub)
	if ds.HasErrors() {
		return nil, ds
	}
	mod, mds := loadModule(root, files)
	mod.Dir = sub
	return mod, ds.Append(mds)
}

// readModuleDir reads the configuration files directly in dir, keyed by
// prefix + name.
func readModuleDir(dir, prefix string) (map[string][]byte, diags.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf(
			"Failed to read module directory",
			"Cairn could not read the configuration directory %s: %s. Check that it exists and is readable.", dir, err)}
	}
	files := make(map[string][]byte)
	var ds diags.Diagnostics
	for _, e := range entries {
		name := e.Name()
		if !isConfigFileName(name) || !isRegularFile(dir, e) {
			continue
		}
		src, err := ReadSourceFile(filepath.Join(dir, name))
		if errors.Is(err, ErrFileTooLarge) {
			ds = ds.Append(diags.Errorf("File too large",
				"%s is larger than %d MiB, the most Cairn reads of a configuration file. Split it into several files.",
				filepath.Join(dir, name), MaxFileSize>>20))
			continue
		}
		if err != nil {
			ds = ds.Append(diags.Errorf("Failed to read file",
				"Cairn could not read %s: %s. Check the file's permissions.", filepath.Join(dir, name), err))
			continue
		}
		files[prefix+name] = src
	}
	return files, ds
}

// isRegularFile reports whether a directory entry is a file, following a
// symbolic link to see what it points at.
func isRegularFile(dir string, e os.DirEntry) bool {
	if e.Type().IsRegular() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && fi.Mode().IsRegular()
}

// LoadFiles loads a module tree from in-memory sources keyed by file name,
// as embedded in a saved plan file; dir is recorded as the root module's
// SourceDir. Keys are used verbatim as the file names in ranges and in
// Module.Sources: the root module's files have no directory part, a child
// module's are under its directory relative to the root
// ("modules/net/main.tf"). Only names that LoadDir would read are loaded:
// ending in .tf or .tf.json, and not hidden or editor backup files.
//
// The result is never nil; see LoadDir.
func LoadFiles(dir string, files map[string][]byte) (*Module, diags.Diagnostics) {
	return loadTree(dir, mapSource(files), nil)
}

// LoadFilesInstalled is LoadFiles for a configuration with non-local
// module calls, whose files are in files under the directories inst
// records.
func LoadFilesInstalled(dir string, files map[string][]byte, inst *InstalledModules) (*Module, diags.Diagnostics) {
	return loadTree(dir, mapSource(files), inst)
}

// loadModule decodes one module from its files, keyed by the names used
// in ranges. Files are decoded in name order so duplicate declarations
// are reported at the same place on every run.
func loadModule(dir string, files map[string][]byte) (*Module, diags.Diagnostics) {
	b := newModuleBuilder(dir)
	names := configFileNames(files)
	parsed := parseFiles(names, files)
	// Primary files first, then override files, each group in name order,
	// as Terraform merges them.
	for i, name := range names {
		b.mod.Sources[name] = files[name]
		b.mod.FunctionCalls = append(b.mod.FunctionCalls, parsed[i].calls...)
		if !isOverrideFile(path.Base(name)) {
			b.report(parsed[i].diags)
			b.decodeFile(parsed[i].body)
		}
	}
	for i, name := range names {
		if isOverrideFile(path.Base(name)) {
			b.report(parsed[i].diags)
			b.mergeOverrideFile(parsed[i].body)
		}
	}
	sortCalls(b.mod.FunctionCalls)
	return b.finish()
}

type parsedFile struct {
	body  hcl.Body
	diags hcl.Diagnostics
	calls []FunctionCall
}

// parseFiles parses the named files in parallel, one per core at a time;
// decoding then goes through them in name order, so results and
// diagnostics do not depend on which finished first.
func parseFiles(names []string, files map[string][]byte) []parsedFile {
	out := make([]parsedFile, len(names))
	var eg errgroup.Group
	eg.SetLimit(runtime.GOMAXPROCS(0))
	for i, name := range names {
		eg.Go(func() error {
			out[i].body, out[i].diags = parseFile(name, files[name])
			out[i].calls = namespacedCalls(files[name], out[i].body)
			return nil
		})
	}
	_ = eg.Wait()
	return out
}

// configFileNames returns the keys of files that name configuration files,
// sorted. A .tf or .tf.json file is left out when the same directory has
// the .tofu or .tofu.json file of the same name, as OpenTofu 1.8 does: a
// module can then carry OpenTofu-only syntax beside a Terraform fallback.
func configFileNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		if isConfigFileName(path.Base(name)) && !hasTofuAlternative(name, files) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// hasTofuAlternative reports whether name is a .tf or .tf.json file
// whose .tofu or .tofu.json twin is in files. Only a name ending in .tf
// or .tf.json costs a map lookup, so a configuration without .tofu files
// pays one lookup per file.
func hasTofuAlternative(name string, files map[string][]byte) bool {
	var twin string
	switch {
	case strings.HasSuffix(name, ".tf"):
		twin = strings.TrimSuffix(name, ".tf") + ".tofu"
	case strings.HasSuffix(name, ".tf.json"):
		twin = strings.TrimSuffix(name, ".tf.json") + ".tofu.json"
	default:
		return false
	}
	_, ok := files[twin]
	return ok && isConfigFileName(path.Base(twin))
}

// isConfigFileName reports whether a file name is one Terraform reads as
// configuration. Hidden files and editor backups (".#x.tf", "x.tf~",
// "#x.tf#") are skipped, as Terraform skips them.
func isConfigFileName(name string) bool {
	if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#")) {
		return false
	}
	return strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tf.json") ||
		strings.HasSuffix(name, ".tofu") || strings.HasSuffix(name, ".tofu.json")
}

// isOverrideFile reports whether a file is an override file (override.tf,
// x_override.tf and their .tf.json, .tofu and .tofu.json forms), which
// Terraform merges into the other files' declarations instead of loading
// as new ones.
func isOverrideFile(name string) bool {
	base := strings.TrimSuffix(name, ".json")
	if b, ok := strings.CutSuffix(base, ".tofu"); ok {
		base = b
	} else {
		base = strings.TrimSuffix(base, ".tf")
	}
	return base == "override" || strings.HasSuffix(base, "_override")
}

// parseFile parses one file in the syntax its name implies. The body is
// never nil: on syntax errors it holds what could be parsed, as Terraform
// decodes it too.
func parseFile(name string, src []byte) (body hcl.Body, diags hcl.Diagnostics) {
	// hcl's parsers guard their own invariants with panics. A panic there
	// must not take down the command, so it becomes an error about the file.
	defer func() {
		if r := recover(); r != nil {
			body = hcl.EmptyBody()
			start := hcl.Pos{Line: 1, Column: 1}
			diags = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Failed to parse file",
				Detail: fmt.Sprintf("The HCL parser failed on %s (%v). This is a bug in the parser; "+
					"please report it with the file attached.", name, r),
				Subject: &hcl.Range{Filename: name, Start: start, End: start},
			}}
		}
	}()
	// Refused before parsing: hcl's parsers recurse once per nesting
	// level and a stack overflow cannot be recovered from.
	if d := CheckSource(name, src); d != nil {
		return hcl.EmptyBody(), hcl.Diagnostics{d}
	}
	var f *hcl.File
	if strings.HasSuffix(name, ".json") {
		f, diags = hcljson.Parse(src, name)
	} else {
		if n := chunksFor(src); n > 1 {
			if body, ok := parseNativeChunked(name, src, n); ok {
				return body, nil
			}
		}
		f, diags = hclsyntax.ParseConfig(src, name, hcl.Pos{Line: 1, Column: 1})
	}
	if f == nil || f.Body == nil {
		return hcl.EmptyBody(), diags
	}
	return f.Body, diags
}
