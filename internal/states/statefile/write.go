package statefile

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/parallel"
	"github.com/cairn-iac/cairn/internal/states"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// Write encodes f in format version 4 with exactly the layout Terraform
// 1.5.7 produces: two-space indented JSON ending in a newline, fields in
// Terraform's order, outputs by name, resources by module, mode, type and
// name, and instances by key and then deposed key. Equal states therefore
// give equal bytes, which keeps state files diffable.
//
// Write fails, writing nothing, when f is nil, when an output value is not
// wholly known, or when a sensitive path cannot be encoded.
func Write(f *File, w io.Writer) error {
	src, err := Marshal(f)
	if err != nil {
		return err
	}
	if _, err := w.Write(src); err != nil {
		return fmt.Errorf("writing state: %w", err)
	}
	return nil
}

// Marshal returns the bytes Write would write.
func Marshal(f *File) ([]byte, error) {
	if f == nil {
		return nil, fmt.Errorf("encoding state: no state file given")
	}
	doc, err := encodeFile(f)
	if err != nil {
		return nil, fmt.Errorf("encoding state: %w", err)
	}
	src, err := appendFile(nil, doc)
	if err != nil {
		return nil, fmt.Errorf("encoding state: %w", err)
	}
	return append(src, '\n'), nil
}

// instanceSizeHint estimates the encoded size of one instance:
// indentation roughly triples compact attribute JSON.
func instanceSizeHint(is *instanceV4) int { return 256 + 3*len(is.Attributes) }

func encodeFile(f *File) (*fileV4, error) {
	doc := &fileV4{
		Version:          json.Number("4"),
		TerraformVersion: f.TerraformVersion,
		Serial:           f.Serial,
		Lineage:          f.Lineage,
		Outputs:          map[string]outputV4{},
		Resources:        []resourceV4{},
	}
	if f.State == nil {
		return doc, nil
	}
	for name, o := range f.State.Outputs {
		ov, err := encodeOutput(o)
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		doc.Outputs[name] = ov
	}
	list := make([]*states.Resource, 0, len(f.State.Resources))
	for _, rs := range f.State.Resources {
		list = append(list, rs)
	}
	doc.Resources = make([]resourceV4, len(list))
	errs := make([]error, len(list))
	parallel.ForEach(len(list), func(i int) {
		doc.Resources[i], errs[i] = encodeResource(list[i])
	})
	if err := firstError(list, errs); err != nil {
		return nil, err
	}
	sort.Slice(doc.Resources, func(i, j int) bool { return resourceLess(&doc.Resources[i], &doc.Resources[j]) })
	return doc, nil
}

// firstError returns the error of the first resource, in address order,
// that failed to encode: which one is reported must not depend on which
// core finished first.
func firstError(list []*states.Resource, errs []error) error {
	first := -1
	for i, err := range errs {
		if err != nil && (first < 0 || list[i].Addr.Less(list[first].Addr)) {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	return fmt.Errorf("resource %s: %w", list[first].Addr, errs[first])
}

// resourceLess orders resources as Terraform does: by the text of the
// module path, then mode text ("data" before "managed"), type and name.
// Comparing text rather than addresses matters for module keys: Terraform
// puts module.a[10] before module.a[2].
func resourceLess(a, b *resourceV4) bool {
	switch {
	case a.Module != b.Module:
		return a.Module < b.Module
	case a.Mode != b.Mode:
		return a.Mode < b.Mode
	case a.Type != b.Type:
		return a.Type < b.Type
	default:
		return a.Name < b.Name
	}
}

func encodeOutput(o *states.OutputValue) (outputV4, error) {
	ty := o.Value.Type()
	v, err := ctyjson.Marshal(o.Value, ty)
	if err != nil {
		return outputV4{}, fmt.Errorf("value: %w", err)
	}
	t, err := ctyjson.MarshalType(ty)
	if err != nil {
		return outputV4{}, fmt.Errorf("type: %w", err)
	}
	return outputV4{Value: v, Type: t, Sensitive: o.Sensitive}, nil
}

func encodeResource(rs *states.Resource) (resourceV4, error) {
	r := resourceV4{
		Module:    rs.Addr.Module.String(),
		Mode:      modeManaged,
		Type:      rs.Addr.Resource.Type,
		Name:      rs.Addr.Resource.Name,
		Instances: make([]instanceV4, 0, len(rs.Instances)),
	}
	keyed := rs.HasProviderKeys()
	if !keyed {
		r.Provider = rs.ProviderConfig.String()
	}
	if rs.Addr.Resource.Mode == addrs.DataResourceMode {
		r.Mode = modeData
	}
	keys := make([]instanceKeyed, 0, len(rs.Instances))
	for k, ri := range rs.Instances {
		if ri.Current != nil {
			keys = append(keys, instanceKeyed{key: k, obj: ri.Current, provider: ri.ProviderKey})
		}
		for dk, obj := range ri.Deposed {
			keys = append(keys, instanceKeyed{key: k, deposed: dk, obj: obj, provider: ri.ProviderKey})
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].less(&keys[j]) })
	for _, k := range keys {
		is, err := encodeInstance(k.key, k.deposed, k.obj)
		if err != nil {
			return resourceV4{}, fmt.Errorf("%s: %w", describeObject(rs.Addr.Instance(k.key), k.deposed), err)
		}
		if keyed {
			is.Provider = rs.ProviderConfig.Instance(k.provider).String()
		}
		r.Instances = append(r.Instances, is)
	}
	return r, nil
}

// instanceKeyed is one object of a resource, with what orders it.
type instanceKeyed struct {
	key      addrs.InstanceKey
	deposed  addrs.DeposedKey
	obj      *states.ObjectSrc
	provider addrs.InstanceKey // the provider instance's key
}

// less orders objects as Terraform does: no key first, then numbers in
// numeric order, then strings; for one key the current object first, then
// deposed objects by key.
func (a *instanceKeyed) less(b *instanceKeyed) bool {
	if a.key != b.key {
		switch ak := a.key.(type) {
		case nil:
			return true
		case addrs.IntKey:
			bk, ok := b.key.(addrs.IntKey)
			return !ok && b.key != nil || ok && ak < bk
		case addrs.StringKey:
			bk, ok := b.key.(addrs.StringKey)
			return ok && ak < bk
		}
	}
	return a.deposed < b.deposed
}

func encodeInstance(key addrs.InstanceKey, dk addrs.DeposedKey, obj *states.ObjectSrc) (instanceV4, error) {
	is := instanceV4{
		Deposed:             string(dk),
		SchemaVersion:       obj.SchemaVersion,
		Attributes:          obj.AttrsJSON,
		Private:             obj.Private,
		CreateBeforeDestroy: obj.CreateBeforeDestroy,
	}
	if !obj.Identity.IsNone() {
		v := obj.Identity.SchemaVersion
		is.Identity, is.IdentitySchemaVersion = obj.Identity.JSON, &v
	}
	switch k := key.(type) {
	case addrs.IntKey:
		is.IndexKey = json.RawMessage(fmt.Appendf(nil, "%d", int(k)))
	case addrs.StringKey:
		b, err := json.Marshal(string(k))
		if err != nil {
			return instanceV4{}, err
		}
		is.IndexKey = b
	}
	if obj.Status == states.ObjectTainted {
		is.Status = statusTainted
	}
	paths, err := marshalPaths(obj.AttrSensitivePaths)
	if err != nil {
		return instanceV4{}, err
	}
	is.SensitiveAttributes = paths
	if len(obj.Dependencies) > 0 {
		is.Dependencies = make([]string, len(obj.Dependencies))
		for i, d := range obj.Dependencies {
			is.Dependencies[i] = d.String()
		}
		sort.Strings(is.Dependencies)
	}
	return is, nil
}
