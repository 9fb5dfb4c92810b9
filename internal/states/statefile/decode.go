package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func decodeOutput(o outputV4) (*states.OutputValue, error) {
	if len(o.Type) == 0 {
		return nil, fmt.Errorf("missing \"type\"")
	}
	ty, err := ctyjson.UnmarshalType(o.Type)
	if err != nil {
		return nil, fmt.Errorf("invalid type: %w", err)
	}
	if len(o.Value) == 0 {
		return nil, fmt.Errorf("missing \"value\"")
	}
	v, err := ctyjson.Unmarshal(o.Value, ty)
	if err != nil {
		return nil, fmt.Errorf("value does not match its type %s: %w", ty.FriendlyName(), err)
	}
	return &states.OutputValue{Value: v, Sensitive: o.Sensitive}, nil
}

func decodeResource(r *resourceV4, cache *addrCache) (*states.Resource, error) {
	addr, err := decodeResourceAddr(r, cache)
	if err != nil {
		return nil, err
	}
	var pc addrs.AbsProviderConfig
	if r.Provider != "" {
		if pc, err = cache.provider(r.Provider); err != nil {
			return nil, err
		}
	}
	rs := &states.Resource{
		Addr:           addr,
		ProviderConfig: pc,
		Instances:      make(map[addrs.InstanceKey]*states.ResourceInstance, len(r.Instances)),
	}
	for j := range r.Instances {
		if err := decodeInstance(rs, &r.Instances[j], r.Provider != "", cache); err != nil {
			return nil, fmt.Errorf("instances[%d]: %w", j, err)
		}
	}
	if rs.ProviderConfig.Provider.IsZero() {
		return nil, fmt.Errorf(`missing "provider": neither the resource nor its instances name a provider configuration`)
	}
	return rs, nil
}

func decodeResourceAddr(r *resourceV4, cache *addrCache) (addrs.AbsResource, error) {
	var mode addrs.ResourceMode
	switch r.Mode {
	case modeManaged:
		mode = addrs.ManagedResourceMode
	case modeData:
		mode = addrs.DataResourceMode
	default:
		return addrs.AbsResource{}, fmt.Errorf("invalid mode %q: must be %q or %q", r.Mode, modeManaged, modeData)
	}
	if !addrs.ValidIdentifier(r.Type) {
		return addrs.AbsResource{}, fmt.Errorf("invalid address: type %q is not a valid name", r.Type)
	}
	if !addrs.ValidIdentifier(r.Name) {
		return addrs.AbsResource{}, fmt.Errorf("invalid address: name %q is not a valid name", r.Name)
	}
	m, err := cache.module(r.Module)
	if err != nil {
		return addrs.AbsResource{}, err
	}
	return addrs.Resource{Mode: mode, Type: r.Type, Name: r.Name}.Absolute(m), nil
}

// decodeInstance adds one instance entry (a current or a deposed object) to
// rs, rejecting a second entry for the same object.
func decodeInstance(rs *states.Resource, is *instanceV4, resourceProvider bool, cache *addrCache) error {
	key, err := decodeIndexKey(is.IndexKey)
	if err != nil {
		return err
	}
	dk, err := decodeDeposedKey(is.Deposed)
	if err != nil {
		return err
	}
	obj, err := decodeObject(is, cache)
	if err != nil {
		return fmt.Errorf("%s: %w", describeObject(rs.Addr.Instance(key), dk), err)
	}
	ri := rs.Instances[key]
	if ri == nil {
		ri = &states.ResourceInstance{}
		rs.Instances[key] = ri
	}
	if err := decodeInstanceProvider(rs, ri, is.Provider, resourceProvider, cache); err != nil {
		return fmt.Errorf("%s: %w", describeObject(rs.Addr.Instance(key), dk), err)
	}
	if dk == addrs.NotDeposed {
		if ri.Current != nil {
			return fmt.Errorf("%s: the current object appears more than once", rs.Addr.Instance(key))
		}
		ri.Current = obj
		return nil
	}
	if ri.Deposed[dk] != nil {
		return fmt.Errorf("%s: deposed object %s appears more than once", rs.Addr.Instance(key), dk)
	}
	if ri.Deposed == nil {
		ri.Deposed = map[addrs.DeposedKey]*states.ObjectSrc{}
	}
	ri.Deposed[dk] = obj
	return nil
}

// decodeInstanceProvider records the provider instance an object names.
// As in OpenTofu, a resource names its provider configuration or its
// objects name their provider instances, never both, and every object of
// a resource names the same configuration.
func decodeInstanceProvider(rs *states.Resource, ri *states.ResourceInstance, s string, resourceProvider bool, cache *addrCache) error {
	switch {
	case s == "" && !resourceProvider:
		return fmt.Errorf(`missing "provider": neither the resource nor the object names a provider configuration`)
	case s == "":
		return nil
	case resourceProvider:
		return fmt.Errorf("the resource names provider %s and the object %s; OpenTofu writes one or the other", rs.ProviderConfig, s)
	}
	pc, err := cache.provider(s)
	if err != nil {
		return err
	}
	switch cfg := pc.Config(); {
	case rs.ProviderConfig.Provider.IsZero():
		rs.ProviderConfig = cfg
	case !rs.ProviderConfig.Equal(cfg):
		return fmt.Errorf("objects of one resource name different provider configurations: %s and %s", rs.ProviderConfig, cfg)
	}
	ri.ProviderKey = pc.Key
	return nil
}

func describeObject(addr addrs.AbsResourceInstance, dk addrs.DeposedKey) string {
	if dk == addrs.NotDeposed {
		return addr.String()
	}
	return fmt.Sprintf("%s (deposed object %s)", addr, dk)
}

// decodeIndexKey accepts what Terraform writes: a whole number for count, a
// string for for_each, nothing (or null) for neither.
func decodeIndexKey(raw json.RawMessage) (addrs.InstanceKey, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return addrs.NoKey, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("invalid index_key %s: %w", raw, err)
		}
		// Not through cty: cty.StringVal normalizes Unicode, and the key must
		// stay exactly as the file has it.
		return addrs.StringKey(s), nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n, err := cty.ParseNumberVal(string(raw))
		if err != nil {
			return nil, fmt.Errorf("invalid index_key %s: %w", raw, err)
		}
		k, err := addrs.ParseInstanceKey(n)
		if err != nil {
			return nil, fmt.Errorf("invalid index_key %s: %w", raw, err)
		}
		return k, nil
	default:
		return nil, fmt.Errorf("invalid index_key %s: must be a whole number (count) or a string (for_each)", raw)
	}
}

// decodeDeposedKey checks the eight hexadecimal digits Terraform generates.
func decodeDeposedKey(s string) (addrs.DeposedKey, error) { return addrs.ParseDeposedKey(s) }

func decodeObject(is *instanceV4, cache *addrCache) (*states.ObjectSrc, error) {
	if is.AttributesFlat != nil && len(is.Attributes) == 0 {
		return nil, fmt.Errorf("attributes are in the legacy attributes_flat form left by a format version 3 " +
			"upgrade; run terraform apply -refresh-only with Terraform 1.x to convert them")
	}
	obj := &states.ObjectSrc{
		SchemaVersion:       is.SchemaVersion,
		Status:              states.ObjectReady,
		CreateBeforeDestroy: is.CreateBeforeDestroy,
	}
	switch is.Status {
	case "":
	case statusTainted:
		obj.Status = states.ObjectTainted
	default:
		return nil, fmt.Errorf("invalid status %q: must be %q or absent", is.Status, statusTainted)
	}
	if len(is.Attributes) > 0 {
		// Already canonical: decodeJSON compacted the whole document, and
		// encoding/json copied the bytes.
		obj.AttrsJSON = is.Attributes
	}
	paths, err := unmarshalPaths(is.SensitiveAttributes)
	if err != nil {
		return nil, fmt.Errorf("invalid sensitive_attributes: %w", err)
	}
	obj.AttrSensitivePaths = paths
	if id := is.Identity; len(id) > 0 && string(id) != "null" {
		if id[0] != '{' {
			return nil, fmt.Errorf("invalid identity: must be an object")
		}
		obj.Identity.JSON = id
		if is.IdentitySchemaVersion != nil {
			obj.Identity.SchemaVersion = *is.IdentitySchemaVersion
		}
	}
	if len(is.Private) > 0 {
		obj.Private = is.Private
	}
	deps, err := decodeDependencies(is.Dependencies, cache)
	if err != nil {
		return nil, fmt.Errorf("dependencies: %w", err)
	}
	obj.Dependencies = deps
	return obj, nil
}

// decodeDependencies parses an object's dependencies, sorted by address.
// Terraform writes them sorted, and so does Write; sorting here too keeps
// a hand-edited file from reading differently after a write. Text that is
// already the addresses' String form and in order needs no sort, which
// spares building every address's text again for each comparison.
func decodeDependencies(texts []string, cache *addrCache) ([]addrs.AbsResource, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	deps := make([]addrs.AbsResource, len(texts))
	sorted := true
	for i, s := range texts {
		d, err := cache.dep(s)
		if err != nil {
			return nil, err
		}
		deps[i] = d.addr
		sorted = sorted && d.canonical && (i == 0 || texts[i-1] <= s)
	}
	if !sorted {
		slices.SortStableFunc(deps, func(a, b addrs.AbsResource) int {
			return strings.Compare(a.String(), b.String())
		})
	}
	return deps, nil
}
