package command

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/genconfig"
	"github.com/cairn-iac/cairn/internal/planning"
)

// runQuery implements "cairn query" (Terraform 1.14's terraform query):
// run the list blocks of the *.tfquery.hcl files beside the
// configuration and print what they find, one line per object
// ("list.TYPE.NAME   identity   display name"), or Terraform's JSON
// messages with -json. -generate-config-out=FILE writes, for every
// object, an import block naming it by identity and a resource block
// from the listed object, so that a plan with the file imports them and
// changes nothing.
func runQuery(m *Meta, args []string) int {
	var c commonFlags
	fs := newFlagSet("query", m.Stderr)
	c.registerRun(fs)
	asJSON := fs.Bool("json", false, "Print machine-readable JSON messages.")
	genOut := fs.String("generate-config-out", "", "Write import and resource blocks for the results to this new file.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if c.noColor {
		m.Color = false
	}
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
	var results []planning.QueryResult
	qds := planning.Query(ctx, planning.Options{
		Secrets: m.runSecrets(), Config: op.cfg, PrevState: op.state.state(), Variables: vars, Providers: op.library, Funcs: m.funcTable(true), Now: m.Now().UTC(),
		Workspace: op.state.workspace,
	}, lists, *genOut != "", func(r planning.QueryResult) {
		if *asJSON {
			m.queryJSON(r)
		} else {
			fmt.Fprintf(m.Stdout, "%s   %s   %s\n", listAddr(r.List), identityLine(r.Identity), r.DisplayName)
		}
		results = append(results, r)
	})
	if ds = ds.Append(qds); qds.HasErrors() {
		return m.fail(ds)
	}
	if !*asJSON && len(results) > 0 {
		fmt.Fprintln(m.Stdout)
	}
	if *genOut != "" {
		if err := writeNewFile(*genOut, []byte(queryConfig(results))); err != nil {
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

// queryJSON prints a result as Terraform's list_resource_found message.
func (m *Meta) queryJSON(r planning.QueryResult) {
	id, _ := ctyjson.Marshal(r.Identity, r.Identity.Type())
	found := map[string]any{
		"address": listAddr(r.List), "display_name": r.DisplayName, "identity": json.RawMessage(id), "resource_type": r.List.Type,
	}
	if r.Object != cty.NilVal && !r.Object.IsNull() {
		if obj, err := ctyjson.Marshal(r.Object, r.Object.Type()); err == nil {
			found["resource_object"] = json.RawMessage(obj)
		}
	}
	line, err := json.Marshal(map[string]any{
		"@level": "info", "@message": listAddr(r.List) + ": Result found", "@module": "terraform.ui",
		"@timestamp": m.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00"), "type": "list_resource_found", "list_resource_found": found,
	})
	if err == nil {
		fmt.Fprintf(m.Stdout, "%s\n", line)
	}
}

// queryConfig is the file -generate-config-out writes: per result, an
// import block naming the object by identity and its resource block,
// named after the list block and the result's position.
func queryConfig(results []planning.QueryResult) string {
	var b strings.Builder
	b.WriteString("# __generated__ by Cairn\n# Please review these resources and move them into your main configuration files.\n")
	for i, r := range results {
		name := fmt.Sprintf("%s_%d", r.List.Name, i)
		ref := ""
		if pr := r.List.ProviderConfigRef; pr != nil {
			ref = providerRefText(pr)
		}
		f := hclwrite.NewEmptyFile()
		imp := f.Body().AppendNewBlock("import", nil).Body()
		imp.SetAttributeRaw("to", hclwrite.TokensForIdentifier(r.List.Type+"."+name))
		if ref != "" {
			imp.SetAttributeRaw("provider", hclwrite.TokensForIdentifier(ref))
		}
		imp.SetAttributeValue("identity", r.Identity)
		if r.Schema != nil {
			fmt.Fprintf(&b, "\n%s", genconfig.Resource(r.List.Type, name, ref, r.Schema, r.Object))
		}
		fmt.Fprintf(&b, "\n%s", hclwrite.Format(f.Bytes()))
	}
	return b.String()
}
