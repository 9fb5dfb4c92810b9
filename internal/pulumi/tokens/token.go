package tokens

import (
	"fmt"
	"strings"
)

// Token is a Pulumi type token, package:module/member:Name. The member is
// the lowerCamel form of Name for resources (bucket:Bucket) and equal to
// Name for functions (getBucket:getBucket), as bridged providers write
// them; Token keeps both so that Parse(t.String()) gives t back.
type Token struct {
	Package string
	Module  string
	Member  string
	Name    string
}

// String returns the token as Pulumi spells it.
func (t Token) String() string {
	return t.Package + ":" + t.Module + "/" + t.Member + ":" + t.Name
}

// Parse reads a token of the form package:module/member:Name. Pulumi also
// accepts package:module:Name; that form is refused because no token this
// package builds has it. Errors are for the user who wrote the token.
func Parse(s string) (Token, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return Token{}, fmt.Errorf("token %q: want package:module/member:Name", s)
	}
	module, member, ok := strings.Cut(parts[1], "/")
	t := Token{Package: parts[0], Module: module, Member: member, Name: parts[2]}
	if !ok || t.Package == "" || t.Module == "" || t.Member == "" || t.Name == "" || strings.Contains(member, "/") {
		return Token{}, fmt.Errorf("token %q: want package:module/member:Name", s)
	}
	return t, nil
}
