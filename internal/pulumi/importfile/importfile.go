package importfile

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/pulumi/tokens"
)

// File is Pulumi's bulk import file, as `pulumi import --file` reads it.
type File struct {
	Resources []Resource `json:"resources"`
}

// Resource is one object to import: its type token, the name it gets in
// the stack, and the ID the provider imports it by.
type Resource struct {
	Type string `json:"type"`
	Name string `json:"name"`
	ID   string `json:"id"`
}

// JSON is the file as written: indented, ending in a newline.
func (f File) JSON() []byte {
	b, _ := json.MarshalIndent(f, "", "  ")
	return append(b, '\n')
}

// Options say what to list: the provider's Pulumi package name (awscc),
// the resource types by their type token or provider type name, and at
// most Limit objects of each (all when not positive).
type Options struct {
	Package string
	Types   []string
	Limit   int64
}

// Build lists the objects of each type through inst (a configured
// provider instance that lists resources and has identities) and returns
// the bulk import file naming them. Names are unique across the file.
func Build(ctx context.Context, inst providers.Interface, opts Options) (File, diags.Diagnostics) {
	var ds diags.Diagnostics
	lp, ok := inst.(providers.ListResourceProvider)
	if !ok {
		return File{}, ds.Append(diags.Errorf("Listing not supported", "Provider %s cannot list its resources.", opts.Package))
	}
	typeNames, tds := resolveTypes(ctx, inst, opts)
	if ds = ds.Append(tds); ds.HasErrors() {
		return File{}, ds
	}
	f := File{Resources: []Resource{}}
	names := map[string]int{}
	for _, tn := range typeNames {
		tok, _ := tokens.Resource(opts.Package, tn)
		resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: tn, Config: cty.EmptyObjectVal, Limit: opts.Limit})
		if ds = ds.Append(resp.Diagnostics); resp.Results == nil || ds.HasErrors() {
			return File{}, ds
		}
		for r := range resp.Results {
			if ds = ds.Append(r.Diagnostics); ds.HasErrors() {
				return File{}, ds
			}
			id, ids := importID(ctx, inst, tn, r.Identity)
			if ds = ds.Append(ids); ds.HasErrors() {
				return File{}, ds
			}
			f.Resources = append(f.Resources, Resource{Type: tok.String(), Name: uniqueName(names, r.DisplayName, id), ID: id})
		}
	}
	return f, ds
}

// resolveTypes maps each requested type (a token or a provider type name)
// to the provider's type name, in the order given.
func resolveTypes(ctx context.Context, inst providers.Interface, opts Options) ([]string, diags.Diagnostics) {
	var ds diags.Diagnostics
	sch := inst.GetProviderSchema(ctx)
	if ds = ds.Append(sch.Diagnostics); ds.HasErrors() {
		return nil, ds
	}
	byToken := make(map[string]string, len(sch.ResourceTypes))
	for name := range sch.ResourceTypes {
		if tok, err := tokens.Resource(opts.Package, name); err == nil {
			byToken[tok.String()] = name
		}
	}
	out := make([]string, 0, len(opts.Types))
	for _, t := range opts.Types {
		if name, ok := byToken[t]; ok {
			out = append(out, name)
			continue
		}
		if _, ok := sch.ResourceTypes[t]; ok {
			out = append(out, t)
			continue
		}
		ds = ds.Append(diags.Errorf("Unknown resource type", "Provider %s has no resource type %q (give a Pulumi type token such as %s, or a type name).", opts.Package, t, someToken(byToken)))
	}
	return out, ds
}

// someToken is one of the provider's tokens, for an error's example.
func someToken(byToken map[string]string) string {
	all := make([]string, 0, len(byToken))
	for t := range byToken {
		all = append(all, t)
	}
	sort.Strings(all)
	if len(all) == 0 {
		return "pkg:module/member:Name"
	}
	return all[0]
}

// importID is the ID the adapter's Read imports the object of identity by:
// the "id" of the state the provider's import by identity answers.
func importID(ctx context.Context, inst providers.Interface, typeName string, identity cty.Value) (string, diags.Diagnostics) {
	resp := inst.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: typeName, Identity: identity})
	if resp.Diagnostics.HasErrors() {
		return "", resp.Diagnostics
	}
	for _, r := range resp.ImportedResources {
		if r.TypeName != typeName || r.State.IsNull() || !r.State.Type().IsObjectType() || !r.State.Type().HasAttribute("id") {
			continue
		}
		if id := r.State.GetAttr("id"); id.IsKnown() && !id.IsNull() && id.Type() == cty.String && id.AsString() != "" {
			return id.AsString(), resp.Diagnostics
		}
	}
	return "", resp.Diagnostics.Append(diags.Errorf("No import ID", "Importing %s by identity gave no object with an id.", typeName))
}

// uniqueName is a resource name from an object's display name (else its
// ID): letters, digits, "-" and "_" kept, runs of anything else one "-",
// with "-2", "-3", ... after a name already taken.
func uniqueName(taken map[string]int, display, id string) string {
	base := sanitize(display)
	if base == "" {
		base = sanitize(id)
	}
	if base == "" {
		base = "resource"
	}
	name := base
	for n := 2; taken[name] > 0; n++ {
		name = fmt.Sprintf("%s-%d", base, n)
	}
	taken[name] = 1
	return name
}

func sanitize(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}
