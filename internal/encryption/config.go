package encryption

import (
	"github.com/hashicorp/hcl/v2"
)

// Config is a decoded encryption configuration: the encryption block
// merged with TF_ENCRYPTION, every reference resolved. A nil *Config
// means no encryption is configured.
type Config struct {
	// KeyProviders and Methods are in declaration order.
	KeyProviders []*KeyProvider
	Methods      []*Method
	// State and Plan are the targets, nil when not configured (the data
	// is then written in the clear and must be read in the clear).
	State *TargetConfig
	Plan  *TargetConfig
	// RemoteStateDefault and RemoteStateSources are the
	// remote_state_data_sources block: decoded and checked, for
	// terraform_remote_state data sources to use.
	RemoteStateDefault *TargetConfig
	RemoteStateSources map[string]*TargetConfig
	// DeclRange is the encryption block's header, or the start of
	// TF_ENCRYPTION when only that is set.
	DeclRange hcl.Range
}

// KeyProvider is a key_provider "pbkdf2" "NAME" block with OpenTofu's
// defaults applied and its limits checked.
type KeyProvider struct {
	Type, Name   string
	passphrase   string
	KeyLength    int
	Iterations   int
	SaltLength   int
	HashFunction string
	// MetadataAlias is encrypted_metadata_alias: the key under which the
	// provider's metadata is stored instead of key_provider.TYPE.NAME,
	// so that a provider can be renamed.
	MetadataAlias string
	DeclRange     hcl.Range
}

// Addr is the provider's address in configuration, key_provider.TYPE.NAME.
func (k *KeyProvider) Addr() string { return "key_provider." + k.Type + "." + k.Name }

// String is Addr, so that printing a provider never prints its passphrase.
func (k *KeyProvider) String() string { return k.Addr() }

// GoString is Addr too, for %#v.
func (k *KeyProvider) GoString() string { return k.Addr() }

// MetaKey is where the provider's metadata lives in an envelope's meta.
func (k *KeyProvider) MetaKey() string {
	if k.MetadataAlias != "" {
		return k.MetadataAlias
	}
	return k.Addr()
}

// Method types.
const (
	MethodAESGCM      = "aes_gcm"
	MethodUnencrypted = "unencrypted"
)

// Method is a method "TYPE" "NAME" block: aes_gcm with its key provider
// and additional authenticated data, or unencrypted (migration only).
type Method struct {
	Type, Name string
	// Keys is the key provider of an aes_gcm method, nil for unencrypted.
	Keys      *KeyProvider
	AAD       []byte
	DeclRange hcl.Range
}

// Addr is the method's address in configuration, method.TYPE.NAME.
func (m *Method) Addr() string { return "method." + m.Type + "." + m.Name }

// String is Addr.
func (m *Method) String() string { return m.Addr() }

// TargetConfig is a state, plan, fallback or remote state block: the
// method that writes, and the fallbacks that may read.
type TargetConfig struct {
	Method *Method
	// Enforced refuses unencrypted data (state and plan blocks only): an
	// unencrypted method anywhere in the chain is a configuration error.
	Enforced    bool
	Fallback    *TargetConfig
	MethodRange hcl.Range
}

// chain returns the methods to try, primary first, then each fallback.
func (t *TargetConfig) chain() []*Method {
	var out []*Method
	for c := t; c != nil; c = c.Fallback {
		out = append(out, c.Method)
	}
	return out
}
