package builtin

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// remoteStateSchema is terraform_remote_state's schema, as Terraform
// 1.5.7 declares it: workspace has no default in the schema (a null
// workspace stays null in state and means "default").
var remoteStateSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"backend":   {Type: cty.String, Required: true, Description: "The backend that holds the state; Cairn reads only \"local\"."},
		"config":    {Type: cty.DynamicPseudoType, Optional: true, Description: "The backend's configuration, as in a terraform { backend } block."},
		"defaults":  {Type: cty.DynamicPseudoType, Optional: true, Description: "Values for outputs the state lacks."},
		"outputs":   {Type: cty.DynamicPseudoType, Computed: true, Description: "Every root module output in the state, over the defaults."},
		"workspace": {Type: cty.String, Optional: true, Description: "The workspace whose state to read; null means \"default\"."},
	},
}

// defaultWorkspace is the workspace read when none is named.
const defaultWorkspace = "default"

// terraformBackends are the backend types Terraform 1.5.7 knows. Cairn
// reads only "local"; naming another gets a message saying so, while a
// name Terraform does not know gets Terraform's own message.
var terraformBackends = map[string]bool{
	"remote": true, "cloud": true, "azurerm": true, "consul": true, "cos": true, "gcs": true,
	"http": true, "inmem": true, "kubernetes": true, "oss": true, "pg": true, "s3": true,
}

// localBackendAttrs are the local backend's configuration arguments.
var localBackendAttrs = map[string]bool{"path": true, "workspace_dir": true}

// localBackend is the local backend's configuration, decoded.
type localBackend struct {
	path, workspaceDir string
}

// backendType is the configured backend, with the legacy "_local" spelling
// Terraform still accepts read as "local".
func backendType(cfg cty.Value) string {
	name := cfg.GetAttr("backend").AsString()
	if name == "_local" {
		return "local"
	}
	return name
}

// checkBackend reports a backend other than local, with Terraform's
// message for names Terraform does not know.
func checkBackend(name string) diags.Diagnostics {
	path := cty.GetAttrPath("backend")
	switch {
	case name == "local":
		return nil
	case terraformBackends[name]:
		return diags.Diagnostics{diags.AttributeError(path, "Invalid backend configuration", fmt.Sprintf(
			"Cairn reads terraform_remote_state only from the \"local\" backend; the %q backend is not supported. Copy the state to a local file, or use Terraform for this configuration.", name))}
	default:
		return diags.Diagnostics{diags.AttributeError(path, "Invalid backend configuration", fmt.Sprintf("There is no backend type named %q.", name))}
	}
}

// decodeLocalBackend checks config against the local backend's schema and
// reads it, with Terraform's messages. config must be wholly known.
func decodeLocalBackend(config cty.Value) (localBackend, diags.Diagnostics) {
	cfgPath := cty.GetAttrPath("config")
	invalid := func(format string, args ...any) diags.Diagnostics {
		return diags.Diagnostics{diags.AttributeError(cfgPath, "Invalid backend configuration",
			fmt.Sprintf("The given configuration is not valid for backend \"local\": %s.", fmt.Sprintf(format, args...)))}
	}
	var lb localBackend
	if config.IsNull() {
		return lb, nil
	}
	ty := config.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return lb, invalid("object required")
	}
	attrs := config.AsValueMap()
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !localBackendAttrs[name] {
			return lb, invalid("unexpected attribute %q", name)
		}
	}
	get := func(name string, dst *string) diags.Diagnostics {
		v, ok := attrs[name]
		if !ok || v.IsNull() {
			return nil
		}
		s, err := convert.Convert(v, cty.String)
		if err != nil {
			return invalid(".%s: string required", name)
		}
		if s.IsNull() || s.AsString() == "" {
			return diags.Diagnostics{diags.AttributeError(cfgPath.GetAttr(name), emptyLocalSummary[name],
				fmt.Sprintf("The %q attribute value must not be empty.", name))}
		}
		*dst = s.AsString()
		return nil
	}
	if ds := get("path", &lb.path); ds.HasErrors() {
		return lb, ds
	}
	return lb, get("workspace_dir", &lb.workspaceDir)
}

// emptyLocalSummary is Terraform's summary for an empty local argument.
var emptyLocalSummary = map[string]string{
	"path":          "Invalid local state file path",
	"workspace_dir": "Invalid local workspace directory path",
}

// statePath is where the local backend keeps workspace's state: path (or
// terraform.tfstate) for the default workspace, and
// WORKSPACE_DIR/NAME/terraform.tfstate for any other, where path does not
// apply. Relative paths are relative to dir, the working directory.
func (lb localBackend) statePath(dir, workspace string) string {
	var p string
	if workspace == defaultWorkspace {
		p = lb.path
		if p == "" {
			p = "terraform.tfstate"
		}
	} else {
		wsDir := lb.workspaceDir
		if wsDir == "" {
			wsDir = "terraform.tfstate.d"
		}
		p = filepath.Join(wsDir, workspace, "terraform.tfstate")
	}
	if filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// validateRemoteState checks what can be checked before reading: the
// backend and, when known, its configuration.
func validateRemoteState(cfg cty.Value) diags.Diagnostics {
	backend := cfg.GetAttr("backend")
	if !backend.IsKnown() || backend.IsNull() {
		return nil
	}
	name := backendType(cfg)
	if ds := checkBackend(name); ds.HasErrors() {
		return ds
	}
	config := cfg.GetAttr("config")
	if !config.IsWhollyKnown() {
		return nil
	}
	_, ds := decodeLocalBackend(config)
	return ds
}

// readRemoteState reads the root outputs of the state the configuration
// names, over its defaults. The read folds a crashed apply's journal in
// memory and never writes or locks, so reading another configuration's
// state never disturbs it. A missing or empty state is an error, as in
// Terraform 1.5.7.
func (p *TerraformProvider) readRemoteState(cfg cty.Value) (cty.Value, diags.Diagnostics) {
	if cfg == cty.NilVal || cfg.IsNull() || !cfg.IsWhollyKnown() {
		return cty.NilVal, diags.Diagnostics{diags.Errorf("Invalid data source configuration",
			"terraform_remote_state was read with a null or unknown configuration; this is a bug in Cairn.")}
	}
	if ds := validateRemoteState(cfg); ds.HasErrors() {
		return cty.NilVal, ds
	}
	lb, _ := decodeLocalBackend(cfg.GetAttr("config"))
	workspace := defaultWorkspace
	if ws := cfg.GetAttr("workspace"); !ws.IsNull() {
		workspace = ws.AsString()
	}
	if strings.ContainsAny(workspace, `/\`) || workspace == "" || workspace == "." || workspace == ".." {
		return cty.NilVal, diags.Diagnostics{diags.AttributeError(cty.GetAttrPath("workspace"), "Invalid workspace name",
			fmt.Sprintf("%q is not a workspace name: a name is not empty and holds no path separator.", workspace))}
	}
	path := lb.statePath(p.Dir, workspace)
	var opts []statemgr.Option
	if p.RemoteStateEncryption != nil {
		enc, err := p.RemoteStateEncryption()
		if err != nil {
			return cty.NilVal, diags.Diagnostics{diags.Errorf("Unable to load remote state", "%s", err)}
		}
		opts = append(opts, statemgr.WithEncryption(enc))
	}
	sf, err := statemgr.NewFilesystem(path, opts...).Read()
	if err != nil {
		return cty.NilVal, diags.Diagnostics{diags.Errorf("Unable to load remote state", "%s", err)}
	}
	if sf == nil || sf.State == nil {
		return cty.NilVal, diags.Diagnostics{diags.Errorf("Unable to find remote state",
			"No stored state was found for the given workspace in the given backend.")}
	}
	outputs := map[string]cty.Value{}
	if defaults := cfg.GetAttr("defaults"); !defaults.IsNull() {
		if !defaults.CanIterateElements() {
			return cty.NilVal, diags.Diagnostics{diags.AttributeError(cty.GetAttrPath("defaults"), "Invalid defaults",
				"defaults must be an object or a map of output values.")}
		}
		for it := defaults.ElementIterator(); it.Next(); {
			k, v := it.Element()
			outputs[k.AsString()] = v
		}
	}
	// Sensitive outputs are not marked: Terraform 1.5.7 drops the mark on
	// a data source's result, so configurations written for it use them
	// without sensitive = true, and marking them here would reject those.
	for name, o := range sf.State.Outputs {
		outputs[name] = o.Value
	}
	attrs := cfg.AsValueMap()
	attrs["outputs"] = cty.ObjectVal(outputs)
	return cty.ObjectVal(attrs), nil
}
