package cairntest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	eschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// token is the ephemeral resource cairntest_token (protocol 6.7): Open
// returns value "TOKEN-SECRET-<name>", and a RenewAt renew_ms
// milliseconds later when renew_ms is set (each Renew sets the next).
// Open, Renew and Close each append a line ("open", "renew", "close") to
// the file token-<name> in the marker directory (MarkerDirEnv), so a test
// sees what the client did, and that it closed what it opened even when
// the run failed or was interrupted.
type token struct{}

var (
	_ ephemeral.EphemeralResourceWithRenew = token{}
	_ ephemeral.EphemeralResourceWithClose = token{}
)

func (token) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = "cairntest_token"
}

func (token) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = eschema.Schema{Attributes: map[string]eschema.Attribute{
		"name":     eschema.StringAttribute{Required: true},
		"renew_ms": eschema.Int64Attribute{Optional: true},
		"value":    eschema.StringAttribute{Computed: true},
	}}
}

// tokenPrivate is the private data Renew and Close get: the name, so they
// know which marker file to write.
type tokenPrivate struct {
	Name    string `json:"name"`
	RenewMS int64  `json:"renew_ms"`
}

func (token) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var name types.String
	var renew types.Int64
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("renew_ms"), &renew)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := tokenPrivate{Name: name.ValueString(), RenewMS: renew.ValueInt64()}
	resp.Diagnostics.Append(resp.Result.SetAttribute(ctx, path.Root("value"), "TOKEN-SECRET-"+p.Name)...)
	b, _ := json.Marshal(p)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "token", b)...)
	if p.RenewMS > 0 {
		resp.RenewAt = time.Now().Add(time.Duration(p.RenewMS) * time.Millisecond)
	}
	tokenEvent(p.Name, "open")
}

func (token) Renew(ctx context.Context, req ephemeral.RenewRequest, resp *ephemeral.RenewResponse) {
	p := readTokenPrivate(ctx, req.Private.GetKey)
	if p.RenewMS > 0 {
		resp.RenewAt = time.Now().Add(time.Duration(p.RenewMS) * time.Millisecond)
	}
	tokenEvent(p.Name, "renew")
}

func (token) Close(ctx context.Context, req ephemeral.CloseRequest, _ *ephemeral.CloseResponse) {
	tokenEvent(readTokenPrivate(ctx, req.Private.GetKey).Name, "close")
}

func readTokenPrivate[D any](ctx context.Context, get func(context.Context, string) ([]byte, D)) tokenPrivate {
	var p tokenPrivate
	b, _ := get(ctx, "token")
	_ = json.Unmarshal(b, &p)
	return p
}

// tokenEvent appends what happened to the token's marker file.
func tokenEvent(name, what string) {
	dir := os.Getenv(MarkerDirEnv)
	if dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "token-"+name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(what + "\n")
	_ = f.Close()
}
