package tokens

import (
	"fmt"
	"strings"
)

// IndexModule is the module of a type name with no service part
// (terraform_data), as in bridged providers.
const IndexModule = "index"

// Resource returns the token of resource type typeName of provider pkg:
// awscc_s3_bucket is awscc:s3/bucket:Bucket, awscc_ec2_vpc_endpoint is
// awscc:ec2/vpcEndpoint:VpcEndpoint and terraform_data is
// terraform:index/data:Data. The error says why a name cannot be a token.
func Resource(pkg, typeName string) (Token, error) {
	module, words, err := split(pkg, typeName)
	if err != nil {
		return Token{}, err
	}
	name := pascal(words)
	return Token{Package: pkg, Module: module, Member: lowerFirst(name), Name: name}, nil
}

// Function returns the token of data source typeName: awscc_s3_bucket is
// awscc:s3/getBucket:getBucket and the plural awscc_s3_buckets is
// awscc:s3/getBuckets:getBuckets. Singular and plural differ only through
// the data source's own name, so no inflection happens here.
func Function(pkg, typeName string) (Token, error) {
	module, words, err := split(pkg, typeName)
	if err != nil {
		return Token{}, err
	}
	name := "get" + pascal(words)
	return Token{Package: pkg, Module: module, Member: name, Name: name}, nil
}

// split returns the module and the words of the member name. The first
// word after the provider prefix is the module (the service) when more
// words follow it; otherwise the module is index.
func split(pkg, typeName string) (string, []string, error) {
	if pkg == "" || !isName(pkg) {
		return "", nil, fmt.Errorf("provider name %q: want lowercase letters and digits", pkg)
	}
	rest, ok := strings.CutPrefix(typeName, pkg+"_")
	if !ok {
		return "", nil, fmt.Errorf("type %q does not start with the provider's name %q and an underscore", typeName, pkg)
	}
	words := strings.Split(rest, "_")
	for _, w := range words {
		if w == "" || !isName(w) {
			return "", nil, fmt.Errorf("type %q: want words of lowercase letters and digits joined by single underscores", typeName)
		}
	}
	if len(words) == 1 {
		if !isLetter(words[0][0]) {
			return "", nil, fmt.Errorf("type %q: the name after the provider must start with a letter", typeName)
		}
		return IndexModule, words, nil
	}
	if !isLetter(words[1][0]) {
		return "", nil, fmt.Errorf("type %q: the name after the service %q must start with a letter", typeName, words[0])
	}
	return words[0], words[1:], nil
}

// pascal joins words, each with its first letter upper-cased.
func pascal(words []string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(strings.ToUpper(w[:1]))
		b.WriteString(w[1:])
	}
	return b.String()
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }
