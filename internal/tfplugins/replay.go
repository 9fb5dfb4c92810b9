package tfplugins

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// getProviderSchemaMethod is the gRPC method Terraform calls first at
// every launch (Terraform 1.5 does not cache it across launches);
// Terraform 1.12 and later also ask every launch for the resource
// identity schemas.
const (
	getProviderSchemaMethod          = "/tfplugin6.Provider/GetProviderSchema"
	getResourceIdentitySchemasMethod = "/tfplugin6.Provider/GetResourceIdentitySchemas"
)

// schemaReplay answers GetProviderSchema and GetResourceIdentitySchemas
// with the protocol buffer bytes a launch before this one sent, from the
// plugin cache, without building the answer; a launch that finds none
// builds it, sends it and keeps its bytes. Replaying at the wire, after
// the framework and the protocol conversion, is what makes a warm launch
// cost only the file's read: the answer for 1,489 types is tens of
// megabytes of schema objects, and the identities of every type need
// every type translated.
type schemaReplay struct {
	cache    launchCache
	schema   keptAnswer
	identity keptAnswer
}

// keptAnswer is one method's kept bytes, read at most once per process.
type keptAnswer struct {
	once  sync.Once
	bytes []byte
}

// rawReply is an encoded message the codec sends as it is.
type rawReply []byte

// kept returns the answer a method replays, the name of its cache entry
// and the pattern of its kind's entries; nil for a method that is not
// replayed.
func (r *schemaReplay) kept(method string) (*keptAnswer, string, string) {
	switch method {
	case getProviderSchemaMethod:
		return &r.schema, r.cache.schemaName(), "awscc-*.schema.pb"
	case getResourceIdentitySchemasMethod:
		return &r.identity, r.cache.identityName(), "awscc-*.identity.pb"
	}
	return nil, "", ""
}

// intercept is the gRPC server's unary interceptor.
func (r *schemaReplay) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	a, name, pattern := r.kept(info.FullMethod)
	if a == nil || r.cache.key == "" {
		return handler(ctx, req)
	}
	a.once.Do(func() { a.bytes, _ = r.cache.cache.Read(name) })
	if a.bytes != nil {
		return rawReply(a.bytes), nil
	}
	resp, err := handler(ctx, req)
	m, ok := resp.(proto.Message)
	if err != nil || !ok || hasErrorDiagnostic(m.ProtoReflect()) {
		return resp, err
	}
	// Deterministic, so that an answer kept is the answer built (map
	// order aside, which protocol buffers leave free).
	data, merr := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if merr != nil {
		return resp, err
	}
	r.cache.write(name, pattern, data)
	return rawReply(data), nil
}

// hasErrorDiagnostic reports whether a response's diagnostics hold an
// error (severity ERROR, 1 in tfplugin6.Diagnostic): such an answer is
// sent but never kept, so a transient failure is not replayed.
func hasErrorDiagnostic(m protoreflect.Message) bool {
	f := m.Descriptor().Fields().ByName("diagnostics")
	if f == nil || !f.IsList() {
		return false
	}
	list := m.Get(f).List()
	for i := 0; i < list.Len(); i++ {
		d := list.Get(i).Message()
		if sev := d.Descriptor().Fields().ByName("severity"); sev != nil && d.Get(sev).Enum() == 1 {
			return true
		}
	}
	return false
}

// replayCodec is gRPC's protocol buffer codec, sending a rawReply's bytes
// as they are.
type replayCodec struct {
	proto encoding.CodecV2
}

func newReplayCodec() replayCodec { return replayCodec{proto: encoding.GetCodecV2("proto")} }

func (c replayCodec) Marshal(v any) (mem.BufferSlice, error) {
	if raw, ok := v.(rawReply); ok {
		return mem.BufferSlice{mem.SliceBuffer(raw)}, nil
	}
	return c.proto.Marshal(v)
}

func (c replayCodec) Unmarshal(data mem.BufferSlice, v any) error { return c.proto.Unmarshal(data, v) }

func (c replayCodec) Name() string { return c.proto.Name() }
