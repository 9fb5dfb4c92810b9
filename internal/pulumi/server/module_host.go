package server

import (
	"context"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/internal/modulerun"
)

// moduleStateType is the type name, in a package's index module, of the
// custom resource that holds a module component's Terraform state.
const moduleStateType = "ModuleState"

// moduleChildModule is the Pulumi module of the types of a module
// component's resource instances: "terraform:tf:terraform_data".
const moduleChildModule = "tf"

// moduleHost answers, in the plugin process that ran Construct, the
// resource operations the engine calls on what Construct registered:
// the ModuleState resource (whose old outputs are the module's prior
// state, and whose new ones Construct decides) and each resource
// instance (whose diff and values Construct's plan or apply decided).
// Pulumi calls these operations on the process of the provider that
// registered them, which for a component's children is the one that
// constructs it.
type moduleHost struct {
	opts modulerun.Options

	mu sync.Mutex
	// version is the version the engine configured this process's
	// provider with ("" for an unversioned default provider):
	// Construct registers its children with it, so the engine resolves
	// them to this provider, and so this process, not another default
	// provider's.
	version string
	// olds and news are each component's prior and new module state, by
	// component URN: ModuleState's Diff or Create hands Construct the
	// old; Construct hands its Diff, Create or Update the new.
	olds, news map[resource.URN]*promise[[]byte]
	// children are the answers for each instance's resource, by URN.
	children map[resource.URN]*childAnswer
}

func newModuleHost(opts modulerun.Options) *moduleHost {
	return &moduleHost{opts: opts, olds: map[resource.URN]*promise[[]byte]{},
		news: map[resource.URN]*promise[[]byte]{}, children: map[resource.URN]*childAnswer{}}
}

// configured notes the version among the provider's configuration. A
// nil host (no modules served) ignores it.
func (h *moduleHost) configured(args resource.PropertyMap) {
	if h == nil {
		return
	}
	v := ""
	if pv, ok := args["version"]; ok && pv.IsString() {
		v = pv.StringValue()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.version = v
}

func (h *moduleHost) providerVersion() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.version
}

// pending returns the old and new state promises of the Construct of
// component in progress in this process; ok is false when there is none
// ("pulumi refresh" diffs what it read, with no Construct running).
func (h *moduleHost) pending(component resource.URN) (olds, news *promise[[]byte], ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	olds, news = h.olds[component], h.news[component]
	return olds, news, olds != nil && news != nil
}

func (h *moduleHost) promise(m map[resource.URN]*promise[[]byte], urn resource.URN) *promise[[]byte] {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := m[urn]
	if p == nil {
		p = newPromise[[]byte]()
		m[urn] = p
	}
	return p
}

// forget drops what Construct of component left behind, once the engine
// is done with it.
func (h *moduleHost) forget(component resource.URN, children []resource.URN) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.olds, component)
	delete(h.news, component)
	for _, c := range children {
		delete(h.children, c)
	}
}

func (h *moduleHost) setChild(urn resource.URN, a *childAnswer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.children[urn] = a
}

func (h *moduleHost) child(urn resource.URN) *childAnswer {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.children[urn]
}

// promise is a value set once and awaited by others.
type promise[T any] struct {
	once sync.Once
	done chan struct{}
	v    T
}

func newPromise[T any]() *promise[T] { return &promise[T]{done: make(chan struct{})} }

// set sets the value; later calls are ignored.
func (p *promise[T]) set(v T) {
	p.once.Do(func() {
		p.v = v
		close(p.done)
	})
}

// get waits for the value or ctx's end.
func (p *promise[T]) get(ctx context.Context) (T, error) {
	select {
	case <-p.done:
		return p.v, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// moduleResource is the operations of a resource Construct registered.
type moduleResource interface {
	Check(context.Context, *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error)
	Diff(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error)
	Create(context.Context, *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error)
	Update(context.Context, *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error)
	Read(context.Context, *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error)
	Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error)
}

// moduleResource returns the operations of typ (or the URN's type) when
// it is a type Construct registers: the package's ModuleState or an
// instance type in its tf module. Any package name is taken, so a
// parameterized package's components use them too.
func (s *Server) moduleResource(typ, urn string) (moduleResource, bool) {
	if s.modules == nil {
		return nil, false
	}
	if typ == "" {
		if u := resource.URN(urn); u.IsValid() {
			typ = string(u.Type())
		}
	}
	parts := strings.Split(typ, ":")
	if len(parts) != 3 {
		return nil, false
	}
	switch {
	case parts[1] == "index" && parts[2] == moduleStateType:
		return stateResource{s}, true
	case parts[1] == moduleChildModule:
		return childResource{s.modules}, true
	}
	return nil, false
}
