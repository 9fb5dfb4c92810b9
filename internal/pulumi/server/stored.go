package server

import (
	"context"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/states"
)

// stored reads an object a resource's outputs hold (see storedSrc) back
// through the provider, as the engine reads state: upgraded to the
// provider's current schema (UpgradeResourceState with the version it was
// stored at), and refreshed when refresh is set. Refreshed, it returns
// nil when the remote object is gone.
func (s *Server) stored(ctx context.Context, o *op, src *states.ObjectSrc, refresh bool) (*states.Object, error) {
	read, ds := lifecycle.ReadStored(ctx, o.t, src, lifecycle.ReadOptions{Refresh: refresh})
	if err := s.diagsError(ctx, o.urn, ds); err != nil {
		return nil, err
	}
	return read.Current, nil
}

// storedValue is the value and private data of the object a resource's
// outputs hold, upgraded; a null value when st is nil (a create) or holds
// no object.
func (s *Server) storedValue(ctx context.Context, o *op, st *structpb.Struct) (cty.Value, []byte, error) {
	null := cty.NullVal(o.schema.Block.ImpliedType())
	if st == nil {
		return null, nil, nil
	}
	src, err := storedSrc(o.schema.Block, st)
	if err != nil {
		return null, nil, failure("Invalid stored state", err.Error())
	}
	if src == nil {
		return null, nil, nil
	}
	obj, err := s.stored(ctx, o, src, false)
	if err != nil {
		return null, nil, err
	}
	return obj.Value, obj.Private, nil
}
