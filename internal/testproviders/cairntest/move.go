package cairntest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// MoveSourceAddress and MoveSourceType name the one resource type whose
// objects cairntest_thing takes over through a cross-type `moved` block
// (MoveResourceState, protocol 6.5): hashicorp/time's time_static. The
// moved thing is named after the timestamp and gets the private data
// Create leaves, so a client that drops TargetPrivate fails the next Read.
const (
	MoveSourceAddress = "registry.terraform.io/hashicorp/time"
	MoveSourceType    = "time_static"
)

var _ resource.ResourceWithMoveState = thing{}

// MoveState declares the move from time_static. A request from any other
// type or provider matches no mover, which the framework reports as an
// error, as a provider that knows nothing of the source does.
func (thing) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: moveFromTimeStatic}}
}

func moveFromTimeStatic(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if req.SourceTypeName != MoveSourceType || req.SourceProviderAddress != MoveSourceAddress {
		return // not ours: the framework tries the next mover
	}
	var src struct {
		RFC3339 string `json:"rfc3339"`
	}
	if req.SourceRawState == nil || json.Unmarshal(req.SourceRawState.JSON, &src) != nil || src.RFC3339 == "" {
		resp.Diagnostics.AddError("Unreadable source state",
			fmt.Sprintf("The %s object (schema version %d) has no rfc3339.", req.SourceTypeName, req.SourceSchemaVersion))
		return
	}
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("name"), src.RFC3339)...)
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), "thing-"+src.RFC3339)...)
	resp.Diagnostics.Append(resp.TargetPrivate.SetKey(ctx, privateKey, []byte(privateValue))...)
}
