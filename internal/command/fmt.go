package command

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/internal/diags"
)

// fmtOptions are cairn fmt's flags after Terraform 1.5.7's adjustments:
// reading stdin turns off list and write; -check turns on list and off
// write.
type fmtOptions struct {
	list, write, diff, check, recursive bool
}

// runFmt implements "cairn fmt [options] [TARGET...]" with Terraform
// 1.5.7's behaviour: exit 0 when done, 2 on diagnostics (syntax errors,
// missing targets, wrong file kinds), 3 when -check finds files that need
// formatting.
func runFmt(m *Meta, args []string) int {
	var o fmtOptions
	fs := newFlagSet("fmt", m.Stderr)
	fs.BoolVar(&o.list, "list", true, "List files whose formatting differs.")
	fs.BoolVar(&o.write, "write", true, "Write the result to the source files.")
	fs.BoolVar(&o.diff, "diff", false, "Display diffs of formatting changes.")
	fs.BoolVar(&o.check, "check", false, "Check whether the input is formatted; exit 3 if not.")
	fs.BoolVar(&o.recursive, "recursive", false, "Also process files in subdirectories.")
	noColorFlag(fs, m)
	if !m.parseFlags(fs, args) {
		return 1
	}
	paths := fs.Args()
	fromStdin := len(paths) > 0 && paths[0] == "-"
	switch {
	case fromStdin:
		o.list, o.write = false, false
	case len(paths) == 0:
		paths = []string{"."}
	}
	// -check lists into a buffer, whose emptiness is the answer; the
	// listing is shown only if -list was left on.
	showList := o.list
	var out io.Writer = lineWriter{m.Stdout}
	var buf bytes.Buffer
	if o.check {
		o.list, o.write = true, false
		out = &buf
	}
	f := &formatter{m: m, opts: o, out: out}
	var ds diags.Diagnostics
	if fromStdin {
		ds = f.file("<stdin>", "", m.Stdin)
	} else {
		ds = f.targets(paths)
	}
	m.showDiags(ds)
	if ds.HasErrors() {
		return 2
	}
	if !o.check {
		return 0
	}
	formatted := buf.Len() == 0
	if showList {
		_, _ = io.Copy(lineWriter{m.Stdout}, &buf)
	}
	if !formatted {
		return 3
	}
	return 0
}

// lineWriter ends every write with a newline, as Terraform's UI writer
// does: a formatted result without a final newline still prints one, and
// an empty one prints an empty line.
type lineWriter struct{ w io.Writer }

func (l lineWriter) Write(p []byte) (int, error) {
	s := string(p)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if _, err := io.WriteString(l.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// formatter walks fmt's targets and formats each file.
type formatter struct {
	m    *Meta
	opts fmtOptions
	out  io.Writer
}

// targets formats each path: a directory's .tf and .tfvars files, or a
// named file, which must be one of those kinds. A missing path stops the
// walk, as in Terraform.
func (f *formatter) targets(paths []string) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, p := range paths {
		abs, shown := f.resolve(p)
		info, err := os.Stat(abs)
		if err != nil {
			return ds.Append(diags.Errorf("No file or directory at "+shown, ""))
		}
		if info.IsDir() {
			ds = ds.Append(f.dir(abs, shown))
			continue
		}
		if !isFormattable(abs) {
			ds = ds.Append(diags.Errorf("Only .tf and .tfvars files can be processed with terraform fmt", ""))
			continue
		}
		ds = ds.Append(f.openFile(abs, shown))
	}
	return ds
}

// resolve returns the path to operate on (relative paths are relative to
// the working directory, after -chdir) and the path to show, relative to
// the working directory when it lies inside it.
func (f *formatter) resolve(p string) (abs, shown string) {
	abs = p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(f.m.Dir, p)
	}
	shown, err := filepath.Rel(f.m.Dir, abs)
	if err != nil {
		shown = filepath.Clean(abs)
	}
	return abs, shown
}

// isFormattable reports whether fmt formats a file: native-syntax
// configuration and variable files only (JSON files are left alone),
// OpenTofu's .tofu files included.
func isFormattable(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".tf" || ext == ".tfvars" || ext == ".tofu"
}

// dir formats the files in a directory, skipping hidden files and editor
// backups, and descending into subdirectories only with -recursive.
func (f *formatter) dir(abs, shown string) diags.Diagnostics {
	entries, err := os.ReadDir(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return diags.Diagnostics{diags.Errorf("There is no configuration directory at "+shown, "")}
		}
		return diags.Diagnostics{diags.Errorf("Cannot read directory "+shown, "")}
	}
	var ds diags.Diagnostics
	for _, e := range entries {
		name := e.Name()
		if isIgnoredName(name) {
			continue
		}
		subAbs, subShown := filepath.Join(abs, name), filepath.Join(shown, name)
		if e.IsDir() {
			if f.opts.recursive {
				ds = ds.Append(f.dir(subAbs, subShown))
			}
			continue
		}
		if isFormattable(name) {
			ds = ds.Append(f.openFile(subAbs, subShown))
		}
	}
	return ds
}

// isIgnoredName reports the names Terraform skips in a directory: hidden
// files and editor backups.
func isIgnoredName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

func (f *formatter) openFile(abs, shown string) diags.Diagnostics {
	r, err := os.Open(abs)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read file "+shown, "")}
	}
	defer r.Close()
	return f.file(shown, abs, r)
}

// file formats one source named shown (abs is where to write it back; ""
// for stdin). A file that does not parse is left untouched: formatting
// broken syntax could rewrite it beyond recognition.
func (f *formatter) file(shown, abs string, r io.Reader) diags.Diagnostics {
	src, err := io.ReadAll(r)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read "+shown, "")}
	}
	if f.m.sources == nil {
		f.m.sources = map[string][]byte{}
	}
	f.m.sources[shown] = src
	if _, hds := hclsyntax.ParseConfig(src, shown, hcl.InitialPos); hds.HasErrors() {
		return diags.Diagnostics{}.Append(hds)
	}
	result := formatSource(src, shown)
	if !bytes.Equal(src, result) {
		if ds := f.changed(shown, abs, src, result); ds.HasErrors() {
			return ds
		}
	}
	if !f.opts.list && !f.opts.write && !f.opts.diff {
		if _, err := f.out.Write(result); err != nil {
			return diags.Diagnostics{diags.Errorf("Failed to write result", "")}
		}
	}
	return nil
}

// changed lists, writes back and diffs a file whose formatting changed,
// as the options ask.
func (f *formatter) changed(shown, abs string, src, result []byte) diags.Diagnostics {
	if f.opts.list {
		fmt.Fprintln(f.out, shown)
	}
	if f.opts.write {
		if err := os.WriteFile(abs, result, 0o644); err != nil {
			return diags.Diagnostics{diags.Errorf("Failed to write "+shown, "")}
		}
	}
	if f.opts.diff {
		d, err := unifiedDiff(src, result, shown)
		if err != nil {
			return diags.Diagnostics{diags.Errorf(fmt.Sprintf("Failed to generate diff for %s: %s", shown, err), "")}
		}
		_, _ = f.out.Write(d)
	}
	return nil
}

// unifiedDiff runs diff -u on the two versions, labelled old/PATH and
// new/PATH, as Terraform 1.5.7 does; so like Terraform, -diff needs a diff
// program in PATH.
func unifiedDiff(before, after []byte, path string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "cairn-fmt")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	a, b := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	if err := os.WriteFile(a, before, 0o600); err != nil {
		return nil, err
	}
	if err := os.WriteFile(b, after, 0o600); err != nil {
		return nil, err
	}
	out, err := exec.Command("diff", "--label=old/"+path, "--label=new/"+path, "-u", a, b).CombinedOutput()
	if len(out) > 0 {
		// diff exits 1 when the files differ; the output is what counts.
		err = nil
	}
	return out, err
}
