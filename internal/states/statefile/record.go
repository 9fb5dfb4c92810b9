package statefile

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// ObjectRecord is one change to one object of a resource instance, with
// everything needed to apply it to a State. It is the unit statemgr's apply
// journal appends; its JSON reuses the v4 resource and instance fields, so a
// record means exactly what the same entry in a state file means.
type ObjectRecord struct {
	Addr     addrs.AbsResourceInstance
	Deposed  addrs.DeposedKey
	Provider addrs.AbsProviderConfig
	// Object is the object's new stored form, or nil when it was removed.
	Object *states.ObjectSrc
}

// objectRecordV4 is ObjectRecord's JSON: the resource fields, then the
// instance entry (key and deposed key always, the object's fields unless
// it was removed).
type objectRecordV4 struct {
	Module   string     `json:"module,omitempty"`
	Mode     string     `json:"mode"`
	Type     string     `json:"type"`
	Name     string     `json:"name"`
	Provider string     `json:"provider"`
	Removed  bool       `json:"removed,omitempty"`
	Instance instanceV4 `json:"instance"`
}

// MarshalJSON encodes the record as one line of compact JSON, exactly as
// encoding/json would encode objectRecordV4 but without reflection: the
// journal encodes one record per finished instance.
func (r *ObjectRecord) MarshalJSON() ([]byte, error) {
	rec, err := r.toV4()
	if err != nil {
		return nil, err
	}
	dst := make([]byte, 0, 256+len(rec.Instance.Attributes))
	dst = append(dst, '{')
	if rec.Module != "" {
		dst = appendString(append(dst, `"module":`...), rec.Module)
		dst = append(dst, ',')
	}
	dst = appendString(append(dst, `"mode":`...), rec.Mode)
	dst = appendString(append(dst, `,"type":`...), rec.Type)
	dst = appendString(append(dst, `,"name":`...), rec.Name)
	dst = appendString(append(dst, `,"provider":`...), rec.Provider)
	if rec.Removed {
		dst = append(dst, `,"removed":true`...)
	}
	dst, err = appendInstance(append(dst, `,"instance":`...), &rec.Instance, layout{compact: true})
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", describeObject(r.Addr, r.Deposed), err)
	}
	return append(dst, '}'), nil
}

func (r *ObjectRecord) toV4() (*objectRecordV4, error) {
	rec := &objectRecordV4{
		Module:   r.Addr.Module.String(),
		Mode:     modeManaged,
		Type:     r.Addr.Resource.Resource.Type,
		Name:     r.Addr.Resource.Resource.Name,
		Provider: r.Provider.String(),
	}
	if r.Addr.Resource.Resource.Mode == addrs.DataResourceMode {
		rec.Mode = modeData
	}
	obj := r.Object
	if obj == nil {
		rec.Removed = true
		obj = &states.ObjectSrc{}
	}
	is, err := encodeInstance(r.Addr.Resource.Key, r.Deposed, obj)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", describeObject(r.Addr, r.Deposed), err)
	}
	rec.Instance = is
	return rec, nil
}

// UnmarshalJSON decodes a record, checking it as Read checks a state file.
func (r *ObjectRecord) UnmarshalJSON(src []byte) error {
	var rec objectRecordV4
	if err := json.Unmarshal(src, &rec); err != nil {
		return fmt.Errorf("invalid object record: %w", err)
	}
	res := resourceV4{Module: rec.Module, Mode: rec.Mode, Type: rec.Type, Name: rec.Name}
	cache := newAddrCache()
	addr, err := decodeResourceAddr(&res, cache)
	if err != nil {
		return fmt.Errorf("invalid object record%s: %w", describeResource(&res), err)
	}
	pc, err := cache.provider(rec.Provider)
	if err != nil {
		return fmt.Errorf("invalid object record%s: %w", describeResource(&res), err)
	}
	key, err := decodeIndexKey(rec.Instance.IndexKey)
	if err != nil {
		return fmt.Errorf("invalid object record%s: %w", describeResource(&res), err)
	}
	dk, err := decodeDeposedKey(rec.Instance.Deposed)
	if err != nil {
		return fmt.Errorf("invalid object record%s: %w", describeResource(&res), err)
	}
	out := ObjectRecord{Addr: addr.Instance(key), Deposed: dk, Provider: pc}
	if !rec.Removed {
		if len(rec.Instance.Attributes) > 0 {
			// Records are written compact; canonicalize in case one was not.
			rec.Instance.Attributes = appendCompact(nil, rec.Instance.Attributes)
		}
		obj, err := decodeObject(&rec.Instance, cache)
		if err != nil {
			return fmt.Errorf("invalid object record for %s: %w", describeObject(out.Addr, dk), err)
		}
		out.Object = obj
	}
	*r = out
	return nil
}

// Apply records the change in s.
func (r *ObjectRecord) Apply(s *states.State) {
	if r.Deposed == addrs.NotDeposed {
		s.SetResourceInstanceCurrent(r.Addr, r.Object, r.Provider)
		return
	}
	s.SetResourceInstanceDeposed(r.Addr, r.Deposed, r.Object, r.Provider)
}

// OutputRecord is a change to one root output value: its new value, or
// its removal when Value is nil.
type OutputRecord struct {
	Name  string
	Value *states.OutputValue
}

type outputRecordV4 struct {
	Name      string          `json:"name"`
	Removed   bool            `json:"removed,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Type      json.RawMessage `json:"type,omitempty"`
	Sensitive bool            `json:"sensitive,omitempty"`
}

// MarshalJSON encodes the record as compact JSON with the value and type
// as a state file's outputs hold them.
func (r *OutputRecord) MarshalJSON() ([]byte, error) {
	rec := outputRecordV4{Name: r.Name, Removed: r.Value == nil}
	if r.Value != nil {
		o, err := encodeOutput(r.Value)
		if err != nil {
			return nil, fmt.Errorf("encoding output %q: %w", r.Name, err)
		}
		rec.Value, rec.Type, rec.Sensitive = o.Value, o.Type, o.Sensitive
	}
	return json.Marshal(&rec)
}

// UnmarshalJSON decodes a record, checking the value against its type.
func (r *OutputRecord) UnmarshalJSON(src []byte) error {
	var rec outputRecordV4
	if err := json.Unmarshal(src, &rec); err != nil {
		return fmt.Errorf("invalid output record: %w", err)
	}
	out := OutputRecord{Name: rec.Name}
	if !rec.Removed {
		v, err := decodeOutput(outputV4{Value: rec.Value, Type: rec.Type, Sensitive: rec.Sensitive})
		if err != nil {
			return fmt.Errorf("invalid output record %q: %w", rec.Name, err)
		}
		out.Value = v
	}
	*r = out
	return nil
}

// Apply records the change in s.
func (r *OutputRecord) Apply(s *states.State) {
	if r.Value == nil {
		delete(s.Outputs, r.Name)
		return
	}
	s.Outputs[r.Name] = r.Value
}
