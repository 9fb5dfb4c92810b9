package plugin

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// schemaStore keeps GetProviderSchema answers on disk, keyed by the
// SHA-256 of the binary that gave them and the protocol version, so that
// a binary that has not changed is not asked again in a later run. A
// large provider's schema (tens of megabytes for the big cloud providers)
// costs seconds to produce and transfer; Terraform asks for it once per
// provider configuration and module instance in every run.
//
// The answer is kept as the protocol's own bytes, so nothing but the
// plugin decides what a schema is, and a file that no longer decodes is
// simply asked for again and replaced. Storing is best effort: a cache
// that cannot be written costs time, never correctness.
type schemaStore struct {
	dir    string
	binary string
}

// key names the entry for one binary and protocol version.
func (s *schemaStore) key(protocol int) (string, error) {
	f, err := os.Open(s.binary)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s.tfplugin%d.pb", hex.EncodeToString(h.Sum(nil)), protocol), nil
}

// load returns the stored answer for key as a message of type md; ok is
// false when there is none or it does not decode.
func (s *schemaStore) load(key string, md protoreflect.MessageDescriptor) (message, bool) {
	raw, err := os.ReadFile(filepath.Join(s.dir, key))
	if err != nil {
		return message{}, false
	}
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(raw, m); err != nil {
		return message{}, false
	}
	return message{m}, true
}

// save writes the answer under key, atomically: a reader sees the old
// file or the whole new one, never a part.
func (s *schemaStore) save(key string, x message) error {
	raw, err := proto.MarshalOptions{Deterministic: true}.Marshal(x.m.Interface())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, key+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(raw); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(s.dir, key))
}
