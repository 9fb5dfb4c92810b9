package server

import (
	"context"

	"google.golang.org/grpc/stats"
)

// sentHandler tells the server when the answer to a call has been sent
// (a gRPC stats handler: the end of an RPC comes after its last message
// went out), which a unary handler cannot know.
type sentHandler struct {
	srv *Server
}

var _ stats.Handler = sentHandler{}

// methodKey keys the RPC's method in its context.
type methodKey struct{}

func (h sentHandler) TagRPC(ctx context.Context, info *stats.RPCTagInfo) context.Context {
	return context.WithValue(ctx, methodKey{}, info.FullMethodName)
}

func (h sentHandler) HandleRPC(ctx context.Context, st stats.RPCStats) {
	if _, ok := st.(*stats.End); ok {
		method, _ := ctx.Value(methodKey{}).(string)
		h.srv.sent(method)
	}
}

func (sentHandler) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

func (sentHandler) HandleConn(context.Context, stats.ConnStats) {}
