package command

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/internal/cfnsources"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// runCfnExplain implements "cairn cfn explain TYPE [-schemas=DIR]": how one
// CloudFormation type becomes a Terraform resource (every attribute with
// its type, Required/Optional/Computed, validators, plan modifiers and the
// reasons), as cfnschema explains it. TYPE is a CloudFormation name
// (AWS::S3::Bucket) or a Terraform name (awscc_s3_bucket, or a plural data
// source). The schemas are those of -schemas, else the awscc provider
// block's, else CAIRN_AWSCC_SCHEMAS.
func runCfnExplain(m *Meta, args []string) int {
	fs := newFlagSet("cfn explain", m.Stderr)
	var dir string
	fs.StringVar(&dir, "schemas", "", "Directory of CloudFormation schemas.")
	noColorFlag(fs, m)
	// Flags may come before or after the type name.
	var names []string
	for {
		if !m.parseFlags(fs, args) {
			return 1
		}
		if fs.NArg() == 0 {
			break
		}
		names = append(names, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(names) != 1 {
		return m.errorf("Exactly one argument expected",
			"cfn explain takes one type name: a CloudFormation name such as AWS::S3::Bucket, or a Terraform name such as awscc_s3_bucket.")
	}
	src, ds := m.explainSources(dir)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	// Load only the named type when its name says which it is; on a miss,
	// everything, to suggest close names.
	catalog, cds, err := src.Load(explainFilter(names[0]))
	if err == nil && catalog.Type(names[0]) == nil && catalog.ByTerraformName(names[0]) == nil && catalog.ByPluralName(names[0]) == nil {
		catalog, cds, err = src.Load(nil)
	}
	if err != nil {
		return m.fail(ds.Append(diags.Errorf("No CloudFormation schemas loaded", "%s.", err)))
	}
	dir = src.TopDir()
	text, err := catalog.Explain(names[0])
	if err != nil {
		return m.fail(ds.Append(m.schemaProblems(dir, cds)).Append(unknownTypeDiag(catalog, names[0], src.Describe())))
	}
	// Only the explained type's own schema problems matter here; "cairn
	// cfn problems" lists them all.
	ds = ds.Append(m.schemaProblems(dir, problemsOfType(catalog, names[0], cds)))
	fmt.Fprint(m.Stdout, text)
	m.showDiags(ds)
	return 0
}

// explainSources decides which schemas to read: the flag's directory
// alone (relative to the working directory), else what the awscc provider
// would serve here: the built-in schemas and the fetch cache, laid over by
// CAIRN_AWSCC_SCHEMAS and the provider block of the configuration in the
// working directory.
func (m *Meta) explainSources(flagDir string) (cfnsources.Sources, diags.Diagnostics) {
	src := cfnsources.Sources{CacheDir: m.cfnCacheDir()}
	if flagDir != "" {
		dir := m.absPath(flagDir)
		if err := checkDir(dir); err != nil {
			return src, diags.Diagnostics{diags.Errorf("Invalid schema directory", "The schema directory %s cannot be used: %s.", dir, err)}
		}
		return cfnsources.Sources{Dirs: []string{dir}, DirsOnly: true}, nil
	}
	// A configuration is optional here; one that does not load simply
	// does not say where the schemas are.
	cfg, cds := m.loadConfig()
	if cds.HasErrors() {
		cfg = nil
	}
	env, ds := m.awsccSchemasFromEnv(cfg)
	if ds.HasErrors() {
		return src, ds
	}
	if env != "" {
		src.Dirs = append(src.Dirs, env)
	}
	arg, ads := awsccSchemasArg(cfg)
	ds = ds.Append(ads)
	if ads.HasErrors() {
		return src, ds
	}
	dir, err := m.resolveSchemasArg(cfg, arg)
	if err != nil {
		return src, ds.Append(diags.Errorf("Invalid schemas argument", "%s.", err))
	}
	if dir != "" {
		src.Dirs = append(src.Dirs, dir)
	}
	return src, ds
}

// explainFilter keeps the type a CloudFormation or Terraform name names.
func explainFilter(name string) func(string) bool {
	return func(typeName string) bool {
		if typeName == name {
			return true
		}
		res, plural, err := cfnschema.TerraformNames(typeName)
		return err == nil && (res == name || plural == name)
	}
}

// schemaProblems turns the schema loader's diagnostics into warnings: a
// file with an error is left out, a warning drops only the part named, and
// neither stops the other types. Each names its file, line and column
// where known (with the source line, which it adds to m.sources), and its
// JSON pointer.
func (m *Meta) schemaProblems(dir string, cds cfnschema.Diagnostics) diags.Diagnostics {
	var out diags.Diagnostics
	for _, cd := range cds {
		file := cd.File
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
		d := diags.Diagnostic{Severity: diags.Warning, Summary: "CloudFormation schema: " + cd.Summary}
		var b strings.Builder
		if cd.Line > 0 {
			d.Subject = m.schemaRange(cd.File, file, cd.Line, cd.Column)
		} else {
			fmt.Fprintf(&b, "In %s", file)
		}
		if cd.Pointer != "" {
			if b.Len() == 0 {
				b.WriteString("At")
			} else {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " JSON pointer %s", cd.Pointer)
		}
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(cd.Detail)
		if cd.Severity == cfnschema.Error {
			b.WriteString(". The type in this file is not loaded; the other types are.")
		} else {
			b.WriteString(".")
		}
		d.Detail = b.String()
		out = append(out, d)
	}
	return out
}

// schemaRange returns the range of one character at line:col of a schema
// file, with the byte offset the snippet printer needs, and adds the file
// to m.sources under name so the line is shown.
func (m *Meta) schemaRange(path, name string, line, col int) *hcl.Range {
	pos := hcl.Pos{Line: line, Column: col}
	rng := &hcl.Range{Filename: name, Start: pos, End: pos}
	src, err := os.ReadFile(path)
	if err != nil {
		return rng
	}
	offset, l := 0, 1
	for l < line && offset < len(src) {
		if i := bytes.IndexByte(src[offset:], '\n'); i >= 0 {
			offset += i + 1
			l++
		} else {
			return rng
		}
	}
	rng.Start.Byte = min(offset+col-1, len(src))
	rng.End = hcl.Pos{Line: line, Column: col + 1, Byte: min(rng.Start.Byte+1, len(src))}
	if m.sources == nil {
		m.sources = map[string][]byte{}
	}
	m.sources[name] = src
	return rng
}

func firstProblem(cds cfnschema.Diagnostics) string {
	if len(cds) == 0 {
		return "no *.json files"
	}
	return cds[0].String()
}

// unknownTypeDiag reports a type name no loaded schema defines, listing
// the closest names.
func unknownTypeDiag(c *cfnschema.Catalog, name, from string) diags.Diagnostic {
	detail := fmt.Sprintf("No schema in %s defines a type named %q.", from, name)
	if close := closeTypeNames(c, name); len(close) > 0 {
		detail += " Did you mean one of these?\n\n  " + strings.Join(close, "\n  ")
	}
	return diags.Errorf("Unknown resource type", "%s", detail)
}

// closeTypeNames returns up to five types whose CloudFormation or Terraform
// names are closest to name (case-insensitive edit distance), each as
// "AWS::S3::Bucket (awscc_s3_bucket)".
func closeTypeNames(c *cfnschema.Catalog, name string) []string {
	q := strings.ToLower(name)
	limit := max(3, len(q)/4)
	type match struct {
		dist  int
		label string
	}
	var matches []match
	for _, t := range c.Types() {
		best := limit + 1
		for _, n := range []string{t.TypeName, t.TerraformName, t.PluralName} {
			if n == "" {
				continue
			}
			if d := levenshtein.Distance(q, strings.ToLower(n), nil); d < best {
				best = d
			}
		}
		if best <= limit {
			matches = append(matches, match{best, fmt.Sprintf("%s (%s)", t.TypeName, t.TerraformName)})
		}
	}
	sort.Slice(matches, func(i, j int) bool {
		if matches[i].dist != matches[j].dist {
			return matches[i].dist < matches[j].dist
		}
		return matches[i].label < matches[j].label
	})
	var out []string
	for i := 0; i < len(matches) && i < 5; i++ {
		out = append(out, matches[i].label)
	}
	return out
}

// problemsOfType keeps the diagnostics about the schema file of the named
// type (a CloudFormation or Terraform name).
func problemsOfType(catalog *cfnschema.Catalog, name string, cds cfnschema.Diagnostics) cfnschema.Diagnostics {
	rt := catalog.Type(name)
	if rt == nil {
		rt = catalog.ByTerraformName(name)
	}
	if rt == nil {
		return nil
	}
	var out cfnschema.Diagnostics
	for _, d := range cds {
		if d.File == rt.File {
			out = append(out, d)
		}
	}
	return out
}

// runCfnProblems implements "cairn cfn problems [-schemas=DIR]": every
// problem found loading the schemas (a file with an error is left out, a
// warning drops only the part named), and every suppressed type with its
// reason. It exits 1 only when the directory cannot be used.
func runCfnProblems(m *Meta, args []string) int {
	fs := newFlagSet("cfn problems", m.Stderr)
	var dir string
	fs.StringVar(&dir, "schemas", "", "Directory of CloudFormation schemas.")
	noColorFlag(fs, m)
	if !m.parseFlags(fs, args) {
		return 1
	}
	src, ds := m.explainSources(dir)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	catalog, cds, err := src.Load(nil)
	if err != nil {
		return m.fail(ds.Append(diags.Errorf("No CloudFormation schemas loaded", "%s.", err)))
	}
	dir = src.TopDir()
	fmt.Fprintf(m.Stdout, "%d resource types loaded from %s; %d problems; %d types suppressed.\n",
		len(catalog.Types()), src.Describe(), len(cds), len(catalog.Suppressed()))
	for _, s := range catalog.Suppressed() {
		fmt.Fprintf(m.Stdout, "suppressed %s (%s): %s\n", s.TypeName, s.TerraformName, s.Reason)
	}
	m.showDiags(ds.Append(m.schemaProblems(dir, cds)))
	return 0
}
