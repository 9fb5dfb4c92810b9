package boundaries

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// finding is one place where a file does what only the command line may.
type finding struct {
	pos    token.Position
	effect Effect
	what   string // the import or the selector, as written
}

// terminalImports are packages whose use is the terminal: its modes, and
// the signals it sends a process (Ctrl-C).
var terminalImports = map[string]bool{
	"os/signal":                  true,
	"golang.org/x/term":          true,
	"github.com/mattn/go-isatty": true,
}

// processState is, per package, the package-level names that read the
// process's flags, environment or terminal.
var processState = map[string]map[string]Effect{
	"os": {
		"Getenv": Environment, "LookupEnv": Environment, "Environ": Environment,
		"Setenv": Environment, "Unsetenv": Environment, "Clearenv": Environment,
		"ExpandEnv": Environment,
		"Args":      Flags,
		"Stdin":     Terminal, "Stdout": Terminal, "Stderr": Terminal,
	},
	"syscall": {
		"Getenv": Environment, "Environ": Environment, "Setenv": Environment,
		"Unsetenv": Environment, "Clearenv": Environment,
	},
}

// flagSetNames are what package flag offers for parsing arguments a
// caller passes in; every other package-level name of flag is the
// process's own command line (flag.CommandLine, flag.Parse, flag.String,
// ...).
var flagSetNames = map[string]bool{
	"NewFlagSet": true, "FlagSet": true, "Flag": true, "Value": true, "Getter": true,
	"ErrorHandling": true, "ContinueOnError": true, "ExitOnError": true, "PanicOnError": true,
	"ErrHelp": true,
}

// scanEffects parses the files and lists every read of the process's
// flags, environment or terminal, and every init function. It sees what
// is written in the files, not what the libraries they call do.
func scanEffects(files []string) ([]finding, error) {
	fset := token.NewFileSet()
	var out []finding
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		out = append(out, fileEffects(fset, f)...)
	}
	return out, nil
}

func fileEffects(fset *token.FileSet, f *ast.File) []finding {
	var out []finding
	local := map[string]string{} // local name → import path, for os, syscall and flag
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		if terminalImports[path] {
			out = append(out, finding{fset.Position(spec.Pos()), Terminal, "import " + strconv.Quote(path)})
		}
		if path != "os" && path != "syscall" && path != "flag" {
			continue
		}
		name := path
		if spec.Name != nil {
			name = spec.Name.Name
		}
		local[name] = path
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
			out = append(out, finding{fset.Position(fn.Pos()), Init, "func init"})
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		path, ok := local[id.Name]
		if !ok {
			return true
		}
		what := id.Name + "." + sel.Sel.Name
		if path == "flag" {
			if !flagSetNames[sel.Sel.Name] {
				out = append(out, finding{fset.Position(sel.Pos()), Flags, what})
			}
			return true
		}
		if e, ok := processState[path][sel.Sel.Name]; ok {
			out = append(out, finding{fset.Position(sel.Pos()), e, what})
		}
		return true
	})
	return out
}
