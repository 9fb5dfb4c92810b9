package command

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/render"
)

// runQuery implements "cairn query" (Terraform 1.14's terraform query):
// run the list blocks of the *.tfquery.hcl files beside the
// configuration (with -all, also one per list resource type of the
// configured providers) and print what they find, one line per object
// ("list.TYPE.NAME   identity   display name"), or Terraform's JSON
// messages with -json. Lists run in parallel (-parallelism); their lines
// come out list by list, in list order. -generate-config-out=FILE
// writes, for every object, an import block naming it by identity and a
// resource block (the provider's GenerateResourceConfig, else Cairn's
// own), so that a plan with the file imports them and changes nothing;
// with -json the blocks go in the messages instead.
func runQuery(m *Meta, args []string) int {
	var c commonFlags
	fs := newFlagSet("query", m.Stderr)
	c.registerRun(fs)
	asJSON := fs.Bool("json", false, "Print machine-readable JSON messages.")
	all := fs.Bool("all", false, "Also list every list resource type of the configured providers (their default configurations) that no list block lists; types that need arguments are skipped with a warning naming them.")
	genOut := fs.String("generate-config-out", "", "Write import and resource blocks for the results to this new file (with -json, in the messages instead).")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if c.noColor {
		m.Color = false
	}
	if *asJSON {
		m.startJSONView()
	}
	// -all needs every awscc type loaded, not only those the
	// configuration names.
	m.allAWSCCTypes = *all
	op, ds := m.startOperation(&c, "OperationTypeQuery")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer op.state.release(m)
	lists, lds := configs.LoadQueryFiles(op.cfg.SourceDir)
	if ds = ds.Append(lds); lds.HasErrors() {
		return m.fail(ds)
	}
	for _, l := range lists {
		m.listTypes = append(m.listTypes, l.Type)
	}
	vars, vds := m.collectVariables(c.vars)
	if ds = ds.Append(vds); vds.HasErrors() {
		return m.fail(ds)
	}
	ctx, stop := m.interruptible()
	defer stop()
	q, qds := planning.StartQuery(ctx, planning.Options{
		Secrets: m.runSecrets(), Config: op.cfg, PrevState: op.state.state(), Variables: vars, Providers: op.library, Funcs: m.funcTable(true), Now: m.Now().UTC(),
		Workspace: op.state.workspace, Parallelism: c.parallelism,
	}, planning.QueryRequest{Lists: lists, All: *all, WithObjects: *genOut != ""})
	if ds = ds.Append(qds); qds.HasErrors() {
		return m.fail(ds)
	}
	defer q.Close()
	out := m.newQueryOutput(q, len(lists), *asJSON, *genOut != "")
	rds := q.Run(ctx, out)
	out.close()
	if ds = ds.Append(rds); rds.HasErrors() {
		return m.fail(ds)
	}
	if !*asJSON {
		out.summary()
	}
	if *genOut != "" && !*asJSON {
		// Relative to the working directory, -chdir's, as Terraform has it.
		if err := writeNewFile(m.absPath(*genOut), []byte(queryConfig(out.results))); err != nil {
			return m.fail(ds.Append(diags.Errorf("Failed to write generated config", "Cairn could not write the generated configuration to %s: %s.", *genOut, err)))
		}
	}
	m.showDiags(ds)
	return 0
}

func listAddr(l *configs.List) string { return "list." + l.Type + "." + l.Name }

// identityLine is an identity as the query lines give it: its attributes
// as name=value, by name.
func identityLine(v cty.Value) string {
	m := v.AsValueMap()
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		e := m[n]
		switch {
		case e.IsNull():
			parts[i] = n + "=<null>"
		case e.Type() == cty.String:
			parts[i] = n + "=" + e.AsString()
		default:
			src, _ := ctyjson.Marshal(e, e.Type())
			parts[i] = n + "=" + string(src)
		}
	}
	return strings.Join(parts, ",")
}

// queryConfig is the file -generate-config-out writes: per result, its
// resource block and an import block naming the object by identity.
func queryConfig(results [][]planning.QueryResult) string {
	var b strings.Builder
	b.WriteString("# __generated__ by Cairn\n# Please review these resources and move them into your main configuration files.\n")
	for _, list := range results {
		for i, r := range list {
			res, imp := generatedBlocks(r, i)
			if res != "" {
				fmt.Fprintf(&b, "\n%s", res)
			}
			fmt.Fprintf(&b, "\n%s", imp)
		}
	}
	return b.String()
}

// queryLine is a result's line in the human output.
func queryLine(r planning.QueryResult) string {
	return fmt.Sprintf("%s   %s   %s\n", listAddr(r.List), identityLine(r.Identity), r.DisplayName)
}

// jsonFound is a result's list_resource_found message; i is its position
// in its list, which names its generated resource block.
func jsonFound(r planning.QueryResult, i int, generate bool) render.UIMessage {
	f := render.ListFound{Addr: listAddr(r.List), Type: r.List.Type, DisplayName: r.DisplayName, Identity: r.Identity, Object: r.Object}
	if generate {
		f.Config, f.ImportConfig = generatedBlocks(r, i)
	}
	return render.UIListResourceFound(f)
}
