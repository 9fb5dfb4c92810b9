package plugin

import (
	"context"
	"errors"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/dynamicpb"
)

// stream calls a server-streaming RPC that protocol 6 names method,
// letting fill write the request, and returns a function that yields the
// events as they arrive: each call returns the next one, or ok false at
// the end of the stream. A transport or server error ends it with err
// (and is recorded, as call does); cancel ends the call early and must
// be called once the caller is done.
func (c *conn) stream(ctx context.Context, method string, fill func(req message)) (next func() (message, bool, error), cancel func(), err error) {
	md, err := c.method(method)
	if err != nil {
		return nil, nil, err
	}
	req := dynamicpb.NewMessage(md.Input())
	if fill != nil {
		fill(message{req})
	}
	sctx, cancel := context.WithCancel(ctx)
	desc := &grpc.StreamDesc{StreamName: string(md.Name()), ServerStreams: true}
	cs, err := c.cc.NewStream(sctx, desc, "/"+string(c.service.FullName())+"/"+string(md.Name()))
	if err == nil {
		err = cs.SendMsg(req)
	}
	if err == nil {
		err = cs.CloseSend()
	}
	if err != nil {
		cancel()
		recordFailure(ctx, err)
		return nil, nil, err
	}
	next = func() (message, bool, error) {
		ev := dynamicpb.NewMessage(md.Output())
		switch err := cs.RecvMsg(ev); {
		case err == nil:
			return message{ev}, true, nil
		case errors.Is(err, io.EOF):
			return message{}, false, nil
		default:
			recordFailure(ctx, err)
			return message{}, false, err
		}
	}
	return next, cancel, nil
}
