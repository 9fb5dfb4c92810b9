package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/google/uuid"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// backendStateFile is where init records the backend it initialized:
// Terraform's own file, in Terraform's format, so that a team can move
// from one tool to the other one person at a time and each sees the
// other's init.
const backendStateFile = "terraform.tfstate"

// backendStateDoc is .terraform/terraform.tfstate as Terraform 1.5.7
// writes it: a version 3 state whose only content is the backend. The
// field order is Terraform's; modules is always the one empty root.
type backendStateDoc struct {
	Version int             `json:"version"`
	Serial  int64           `json:"serial"`
	Lineage string          `json:"lineage"`
	Backend *backendSetting `json:"backend,omitempty"`
	Modules []legacyModule  `json:"modules"`
}

// backendSetting is the initialized backend: its type, its configuration
// as the configuration file gave it (null for arguments left out), and
// the hash of the backend block Terraform compares on every command.
type backendSetting struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
	Hash   uint64          `json:"hash"`
}

// tofuBackendStateDoc is .terraform/terraform.tfstate as OpenTofu 1.12.6
// writes it: the version and the backend only. Cairn writes it for the
// backend types whose schema is OpenTofu's (s3), so that the file is the
// one OpenTofu would have written; both layouts are read.
type tofuBackendStateDoc struct {
	Version int             `json:"version"`
	Backend *backendSetting `json:"backend,omitempty"`
}

// typeOf is s's backend type; "" for none.
func typeOf(s *backendSetting) string {
	if s == nil {
		return ""
	}
	return s.Type
}

type legacyModule struct {
	Path      []string          `json:"path"`
	Outputs   map[string]string `json:"outputs"`
	Resources map[string]string `json:"resources"`
	DependsOn []string          `json:"depends_on"`
}

// backendSpec is the decoder spec Terraform's hash uses: every argument
// optional.
func backendSpec(typ string) hcldec.ObjectSpec {
	spec := hcldec.ObjectSpec{}
	for name, ty := range backendAttrs(typ) {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: ty}
	}
	return spec
}

// backendConfigValue decodes blk's arguments as Terraform does for the
// hash and the record: every argument optional, nothing to refer to. The
// result is unknown when the body does not decode at all.
func backendConfigValue(blk *configs.Backend) cty.Value {
	spec := backendSpec(blk.Type)
	v, _ := hcldec.Decode(blk.Config, spec, nil)
	if v == cty.NilVal {
		v = cty.UnknownVal(hcldec.ImpliedType(spec).WithoutOptionalAttributesDeep())
	}
	return v
}

// backendHash is Terraform's configs.Backend.Hash: cty's hash of the
// tuple (type, decoded configuration). Terraform compares it with the
// recorded hash to tell that the block changed.
func backendHash(blk *configs.Backend) uint64 {
	v := cty.TupleVal([]cty.Value{cty.StringVal(blk.Type), backendConfigValue(blk)})
	return uint64(v.Hash())
}

// newBackendSetting is the record of blk whose arguments, merged with
// -backend-config, are a: the configuration recorded is a's, the hash
// blk's alone, as Terraform records them (so that a later command
// without -backend-config finds the block unchanged).
func newBackendSetting(blk *configs.Backend, a backendArgs) (*backendSetting, error) {
	v := a.value()
	if !v.IsWhollyKnown() {
		return nil, errors.New("the backend block's arguments cannot be decoded")
	}
	src, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, err
	}
	return &backendSetting{Type: blk.Type, Config: src, Hash: backendHash(blk)}, nil
}

// sameConfig reports whether v (a configuration as a.value() makes it;
// cty.NilVal for one that did not decode) is what s records, arguments
// compared by value: a block reformatted, or written another way, needs
// no init (Terraform then only updates the recorded hash).
func (s *backendSetting) sameConfig(v cty.Value) bool {
	if s == nil || v == cty.NilVal || !v.IsWhollyKnown() {
		return false
	}
	recorded, err := ctyjson.Unmarshal(s.Config, v.Type())
	return err == nil && v.Equals(recorded).True()
}

// args rebuilds the recorded arguments, so that the backend is opened by
// the same decoding as a configured one. Arguments recorded as null are
// left out, as they were from the file.
func (s *backendSetting) args() (backendArgs, diags.Diagnostics) {
	blk, err := s.block()
	if err != nil {
		return backendArgs{}, diags.Diagnostics{diags.Errorf("Failed to read the backend record", "%s", err)}
	}
	return decodeBackendArgs(blk, nil)
}

// block turns the record back into a backend block. Arguments recorded
// as null are left out.
func (s *backendSetting) block() (*configs.Backend, error) {
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(s.Config, &attrs); err != nil {
		return nil, fmt.Errorf("the recorded %q backend configuration: %w", s.Type, err)
	}
	names := make([]string, 0, len(attrs))
	for name, v := range attrs {
		if string(v) != "null" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	kept := map[string]json.RawMessage{}
	for _, name := range names {
		kept[name] = attrs[name]
	}
	src, err := json.Marshal(kept)
	if err != nil {
		return nil, err
	}
	f, ds := hcljson.Parse(src, recordFileName())
	if ds.HasErrors() {
		return nil, fmt.Errorf("the recorded %q backend configuration: %s", s.Type, ds.Error())
	}
	rng := hcl.Range{Filename: recordFileName()}
	return &configs.Backend{Type: s.Type, Config: f.Body, TypeRange: rng, DeclRange: rng}, nil
}

// recordFileName names the record in messages (and as the file name of
// the arguments read back from it).
func recordFileName() string {
	return filepath.Join(".terraform", backendStateFile)
}

// readBackendState reads the record init left; nil when there is none
// (a working directory never initialized, or initialized for the
// default local backend only).
func (m *Meta) readBackendState() (*backendStateDoc, error) {
	path := filepath.Join(m.dataDir(), backendStateFile)
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc backendStateDoc
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Backend != nil && doc.Backend.Type == "" {
		doc.Backend = nil
	}
	return &doc, nil
}

// writeBackendState records next (nil: no backend block) over prev (nil:
// no record yet), one serial up, as Terraform does. With neither a
// record nor a block there is nothing to write, as in Terraform.
func (m *Meta) writeBackendState(prev *backendStateDoc, next *backendSetting) error {
	if prev == nil && next == nil {
		return nil
	}
	doc := backendStateDoc{Version: 3, Serial: 1, Lineage: uuid.NewString()}
	if prev != nil {
		doc.Serial, doc.Lineage = prev.Serial+1, prev.Lineage
	}
	doc.Backend = next
	doc.Modules = []legacyModule{{Path: []string{"root"}, Outputs: map[string]string{}, Resources: map[string]string{}, DependsOn: []string{}}}
	var record any = doc
	if t, _ := backendTypeOf(typeOf(next)); t.tofuRecord {
		// OpenTofu 1.12 writes only the version and the backend.
		record = tofuBackendStateDoc{Version: doc.Version, Backend: next}
	}
	src, err := json.MarshalIndent(record, "", "    ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(m.dataDir(), 0o755); err != nil {
		return err
	}
	// Owner-only: a conn_str written in the backend block is recorded
	// with it.
	return writeFileAtomic(filepath.Join(m.dataDir(), backendStateFile), append(src, '\n'), 0o600)
}

// writeFileAtomic replaces path with src through a temporary file, so a
// crash never leaves a half-written record.
func writeFileAtomic(path string, src []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(src)
	if err := errors.Join(werr, tmp.Chmod(perm), tmp.Sync(), tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
