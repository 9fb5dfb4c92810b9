package server

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/modulerun"
	"github.com/cairn-iac/cairn/internal/pulumi/propval"
)

// moduleComponentType is the generic module component's type name in
// the package's index module: "terraform:index:Module".
const moduleComponentType = "Module"

// moduleSpec is what a module component runs: the module, and its input
// variables' values by variable name, as the program gave them (secrets
// and unknowns kept). The generic component fills it from its source,
// version and inputs properties; a package typed for one module fills it
// from its typed inputs.
type moduleSpec struct {
	Source modulerun.Source
	Vars   resource.PropertyMap
	// Outputs builds the component's outputs from the module's; nil is
	// the generic component's one map property, outputs.
	Outputs func(map[string]modulerun.Output) (*structpb.Struct, error)
}

// Construct builds a component resource. The package's index:Module
// runs a Terraform module: see constructModule. A package typed for one
// module dispatches here too, by its component's type, filling a
// moduleSpec from its typed inputs and calling constructModule.
func (s *Server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	if s.modules == nil {
		return nil, status.Error(codes.Unimplemented, "the "+s.info.Name+" provider has no component resources")
	}
	if call, ok, err := s.TypedModuleCall(req.GetType(), req.GetInputs()); ok {
		if err != nil {
			return nil, err
		}
		spec, err := typedModuleSpec(call)
		if err != nil {
			return nil, failure("Invalid module inputs", err.Error())
		}
		return s.constructModule(ctx, req, spec)
	}
	if req.GetType() != s.info.Name+":index:"+moduleComponentType {
		return nil, failure("Unknown component type", "The "+s.info.Name+" provider has no component "+req.GetType()+".")
	}
	pm, err := unmarshal(req.GetInputs())
	if err != nil {
		return nil, failure("Invalid component inputs", err.Error())
	}
	spec, err := genericModuleSpec(pm)
	if err != nil {
		return nil, failure("Invalid component inputs", err.Error())
	}
	return s.constructModule(ctx, req, spec)
}

// typedModuleSpec is the module call of a package typed for one module:
// its variables come typed from the component's inputs (absent optional
// ones left out, so the module's defaults hold), and its outputs are the
// component's typed outputs.
func typedModuleSpec(call *ModuleCall) (moduleSpec, error) {
	vals := map[string]cty.Value{}
	for name, v := range call.Variables {
		if !v.IsNull() {
			vals[name] = v
		}
	}
	vars, err := encodeMap(vals)
	if err != nil {
		return moduleSpec{}, err
	}
	return moduleSpec{
		Source: modulerun.Source{Source: call.Source, Version: call.Version},
		Vars:   vars.ObjectValue(),
		Outputs: func(outs map[string]modulerun.Output) (*structpb.Struct, error) {
			return call.Outputs(markedOutputs(outs))
		},
	}, nil
}

// componentOutputs is the component's outputs from the module's: the
// spec's own, or the generic component's outputs map.
func (spec moduleSpec) componentOutputs(outs map[string]modulerun.Output) (*structpb.Struct, error) {
	if spec.Outputs != nil {
		return spec.Outputs(outs)
	}
	v, err := outputsProperty(outs)
	if err != nil {
		return nil, err
	}
	return marshal(resource.PropertyMap{"outputs": v})
}

// genericModuleSpec reads terraform:index:Module's inputs: source,
// version and the map inputs.
func genericModuleSpec(pm resource.PropertyMap) (moduleSpec, error) {
	var spec moduleSpec
	str := func(key resource.PropertyKey) (string, error) {
		v, ok := pm[key]
		for ok && v.IsSecret() {
			v = v.SecretValue().Element
		}
		switch {
		case !ok || v.IsNull():
			return "", nil
		case v.IsComputed() || v.IsOutput() && !v.OutputValue().Known:
			return "", fmt.Errorf("%s must be known before the module is planned", key)
		case v.IsOutput():
			v = v.OutputValue().Element
		}
		if !v.IsString() {
			return "", fmt.Errorf("%s must be a string", key)
		}
		return v.StringValue(), nil
	}
	var err error
	if spec.Source.Source, err = str("source"); err != nil {
		return spec, err
	}
	if spec.Source.Source == "" {
		return spec, fmt.Errorf("source is required: the module's directory (./dir) or address")
	}
	if spec.Source.Version, err = str("version"); err != nil {
		return spec, err
	}
	spec.Vars = resource.PropertyMap{}
	if v, ok := pm["inputs"]; ok && !v.IsNull() {
		secret := false
		for v.IsSecret() {
			secret, v = true, v.SecretValue().Element
		}
		if !v.IsObject() {
			return spec, fmt.Errorf("inputs must be a map of the module's variables")
		}
		for k, e := range v.ObjectValue() {
			if secret {
				e = resource.MakeSecret(e)
			}
			spec.Vars[k] = e
		}
	}
	return spec, nil
}

// varsBlock reads a map of values by name verbatim: one attribute of
// no particular type, whose object keys propval keeps as they are.
var varsBlock = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"v": {Type: cty.DynamicPseudoType, Optional: true},
}}

// values converts the variables to cty: secrets marked sensitive,
// unknowns unknown; each variable's type is the module's to apply.
func (spec moduleSpec) values() (map[string]cty.Value, error) {
	v, err := propval.Converter{Block: varsBlock}.ToCty(resource.PropertyMap{"v": resource.NewObjectProperty(spec.Vars)})
	if err != nil {
		return nil, err
	}
	out := map[string]cty.Value{}
	obj := v.GetAttr("v")
	if obj.IsNull() || !obj.IsKnown() {
		return out, nil
	}
	for it := obj.ElementIterator(); it.Next(); {
		k, e := it.Element()
		out[k.AsString()] = e
	}
	return out, nil
}

// encodeMap encodes values by name verbatim, as the map properties
// outputs and inputs.
func encodeMap(vals map[string]cty.Value) (resource.PropertyValue, error) {
	obj := cty.EmptyObjectVal
	if len(vals) > 0 {
		obj = cty.ObjectVal(vals)
	}
	pm, err := propval.Converter{Block: varsBlock}.FromCty(cty.ObjectVal(map[string]cty.Value{"v": obj}))
	if err != nil {
		return resource.PropertyValue{}, err
	}
	if v, ok := pm["v"]; ok {
		return v, nil
	}
	return resource.NewObjectProperty(resource.PropertyMap{}), nil
}

// outputsProperty is the module's outputs as one map, sensitive ones
// secret and unknown ones computed.
func outputsProperty(outs map[string]modulerun.Output) (resource.PropertyValue, error) {
	return encodeMap(markedOutputs(outs))
}

// markedOutputs are the module's output values, sensitive ones marked.
func markedOutputs(outs map[string]modulerun.Output) map[string]cty.Value {
	vals := make(map[string]cty.Value, len(outs))
	for name, o := range outs {
		v := o.Value
		if o.Sensitive {
			v = v.Mark(configschema.SensitiveMark)
		}
		vals[name] = v
	}
	return vals
}

// moduleError reports a module's errors as one status, each at its file
// and line ("./mod/main.tf:6,11: ..."), so the user can find them.
func moduleError(src modulerun.Source, ds diags.Diagnostics) error {
	var msgs []string
	for _, d := range ds {
		if d.Severity == diags.Error {
			msgs = append(msgs, moduleMessage(src, d))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return status.Error(codes.Unknown, strings.Join(msgs, "\n\n"))
}

// moduleMessage is one diagnostic of a module, prefixed with its file
// (under the module's source, for a local one) and line when it has one.
func moduleMessage(src modulerun.Source, d diags.Diagnostic) string {
	msg := describe(d)
	r := d.Subject
	if r == nil {
		return msg
	}
	file := r.Filename
	if src.IsLocal() && !filepath.IsAbs(file) {
		file = path.Join(src.Source, filepath.ToSlash(file))
		if strings.HasPrefix(src.Source, "./") {
			file = "./" + file
		}
	}
	return fmt.Sprintf("%s:%d,%d: %s", file, r.Start.Line, r.Start.Column, msg)
}

// dialMonitor connects to the engine's resource monitor Construct
// registers resources with.
func dialMonitor(endpoint string) (pulumirpc.ResourceMonitorClient, func(), error) {
	conn, err := grpc.NewClient(endpoint, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessage), grpc.MaxCallSendMsgSize(maxMessage)))
	if err != nil {
		return nil, nil, fmt.Errorf("connecting to the resource monitor at %s: %w", endpoint, err)
	}
	return pulumirpc.NewResourceMonitorClient(conn), func() { _ = conn.Close() }, nil
}

// childURN is the URN the engine gives a resource registered under
// parent: computed ahead so the answers for its operations are in place
// before the engine asks.
func childURN(req *pulumirpc.ConstructRequest, parent resource.URN, typ, name string) resource.URN {
	return resource.NewURN(tokens.QName(req.GetStack()), tokens.PackageName(req.GetProject()),
		parent.QualifiedType(), tokens.Type(typ), name)
}

func emptyStruct() *structpb.Struct { return &structpb.Struct{Fields: map[string]*structpb.Value{}} }

// warnModule sends a module's warnings to the engine's log, at their
// file and line.
func (s *Server) warnModule(ctx context.Context, urn resource.URN, src modulerun.Source, ds diags.Diagnostics) {
	for _, d := range ds {
		if d.Severity == diags.Warning {
			_ = s.host.Log(ctx, pulumirpc.LogSeverity_WARNING, urn, moduleMessage(src, d))
		}
	}
}
