package plugin

import (
	"context"
	"fmt"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	// The servers' packages register the tfplugin5 and tfplugin6
	// descriptors the client builds its messages from.
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov5/tf5server"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// v5Methods names protocol 5's RPCs where they differ from protocol 6's;
// their messages agree field for field in everything the client reads or
// writes.
var v5Methods = map[string]string{
	"GetProviderSchema":          "GetSchema",
	"ValidateProviderConfig":     "PrepareProviderConfig",
	"ConfigureProvider":          "Configure",
	"ValidateResourceConfig":     "ValidateResourceTypeConfig",
	"ValidateDataResourceConfig": "ValidateDataSourceConfig",
	"StopProvider":               "Stop",
}

// serviceDescriptor finds the Provider service of a protocol version in
// the global registry. The error says the build is broken: the
// descriptors come from terraform-plugin-go's internal packages, linked in
// by the imports above.
func serviceDescriptor(version int) (protoreflect.ServiceDescriptor, error) {
	name := protoreflect.FullName(fmt.Sprintf("tfplugin%d.Provider", version))
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
	if err != nil {
		return nil, fmt.Errorf("this build of Cairn lacks the %s protocol descriptors (terraform-plugin-go's tf%dserver registers them): %w", name, version, err)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is registered as a %T, not a service", name, d)
	}
	return sd, nil
}

// conn calls one plugin's Provider service with dynamic messages.
type conn struct {
	cc      grpc.ClientConnInterface
	version int
	service protoreflect.ServiceDescriptor
}

// call invokes the RPC that protocol 6 names method, letting fill write
// the request, and returns the response. A transport or server error is
// also recorded in ctx's call record (see withRecord) so the Client can
// name the plugin and the operation in the diagnostic it reports.
func (c *conn) call(ctx context.Context, method string, fill func(req message)) (message, error) {
	md, err := c.method(method)
	if err != nil {
		return message{}, err
	}
	req := dynamicpb.NewMessage(md.Input())
	if fill != nil {
		fill(message{req})
	}
	resp := dynamicpb.NewMessage(md.Output())
	err = c.cc.Invoke(ctx, "/"+string(c.service.FullName())+"/"+string(md.Name()), req, resp)
	if err != nil {
		recordFailure(ctx, err)
		return message{}, err
	}
	return message{resp}, nil
}

// method finds the RPC that protocol 6 names method in this connection's
// protocol version.
func (c *conn) method(method string) (protoreflect.MethodDescriptor, error) {
	name := method
	if c.version == 5 && v5Methods[method] != "" {
		name = v5Methods[method]
	}
	md := c.service.Methods().ByName(protoreflect.Name(name))
	if md == nil {
		return nil, fmt.Errorf("protocol %d has no RPC %s", c.version, name)
	}
	return md, nil
}

// record holds the transport failure of one Client operation, if any.
type record struct {
	mu  sync.Mutex
	err error
}

type recordKey struct{}

// withRecord returns a context that collects the transport failure of the
// calls made under it: tfproto6 turns a failed call into a generic
// diagnostic, and the Client replaces it with one naming the plugin.
func withRecord(ctx context.Context) (context.Context, *record) {
	r := &record{}
	return context.WithValue(ctx, recordKey{}, r), r
}

func recordFailure(ctx context.Context, err error) {
	if r, ok := ctx.Value(recordKey{}).(*record); ok {
		r.mu.Lock()
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
}

func (r *record) failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}
