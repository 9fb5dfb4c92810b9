// Package encryption implements OpenTofu's state and plan encryption: the
// terraform { encryption { ... } } block, and the bytes OpenTofu 1.12
// writes, so that OpenTofu reads what Cairn encrypts and the reverse.
//
// It holds three things:
//
//   - the configuration model (Config), decoded from the encryption
//     block's body and from the TF_ENCRYPTION environment variable, with
//     key_provider "pbkdf2", method "aes_gcm" and method "unencrypted",
//     and the state, plan and remote_state_data_sources targets with their
//     fallback chains;
//   - the payload format (Envelope): a JSON object with the key
//     providers' metadata under "meta", the ciphertext under
//     "encrypted_data" and "encryption_version": "v0";
//   - the runtime (Target): one per use (state, plan), whose Encrypt and
//     Decrypt are the single seam every state manager, plan writer and
//     journal calls. A Target derives its encryption key once, so a run
//     that writes state many times pays for PBKDF2 once.
//
// Errors meant for users are *Error values (a summary and a detail) that
// never contain a passphrase or a key; callers turn them into
// diagnostics. Configuration problems are hcl.Diagnostics with source
// ranges.
//
// The package knows bytes, keys and configuration. It must not import
// states, plans or command: those call it, never the reverse.
//
// Imports:
//
//	deny internal/states/... internal/plans internal/backends/... internal/command # states, plans and command call it, never the reverse
package encryption
