package depsfile

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// FileName is the lock file's name in the working directory.
const FileName = ".terraform.lock.hcl"

const header = `# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.
`

// Bytes renders the locks as Terraform 1.5.7 writes them: the header
// comment, then one block per provider in address order.
func (l *Locks) Bytes() []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, pl := range l.Providers() {
		body.AppendNewline()
		block := body.AppendNewBlock("provider", []string{pl.Provider.String()}).Body()
		block.SetAttributeValue("version", cty.StringVal(pl.Version.String()))
		if cs := pl.Constraints.String(); cs != "" {
			block.SetAttributeValue("constraints", cty.StringVal(cs))
		}
		if len(pl.Hashes) > 0 {
			block.SetAttributeRaw("hashes", hashListTokens(pl.Hashes))
		}
	}
	return append([]byte(header), f.Bytes()...)
}

// hashListTokens writes one hash per line with a trailing comma, the
// layout Terraform uses so that adding a hash is a one-line diff.
func hashListTokens(hashes []string) hclwrite.Tokens {
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, h := range hashes {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(h))...)
		toks = append(toks,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

// Save writes the locks to path, replacing the file through a temporary
// file in the same directory so a crash never leaves half a lock file.
// Whether to write at all (Terraform writes none when nothing needs
// locking and nothing was recorded) is the caller's decision.
func Save(l *Locks, path string) hcl.Diagnostics {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, l.Bytes(), 0o644); err != nil {
		return writeDiag(path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return writeDiag(path, err)
	}
	return nil
}

func writeDiag(path string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to update dependency lock file",
		Detail:   fmt.Sprintf("Error while writing new dependency lock information to %s: %s.", path, err),
	}}
}
