package funcs

import (
	"strings"

	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// stringFunctions returns Terraform's string functions. go-cty's stdlib
// supplies all but four: replace (Terraform's accepts a /regex/ as well as a
// plain substring, see replace.go) and startswith, endswith and strcontains,
// which are Cairn's (string_match.go).
func stringFunctions() map[string]function.Function {
	return map[string]function.Function{
		"chomp":       stdlib.ChompFunc,
		"endswith":    makeStringMatchFunc("suffix", strings.HasSuffix),
		"format":      stdlib.FormatFunc,
		"formatlist":  stdlib.FormatListFunc,
		"indent":      stdlib.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     makeReplaceFunc(),
		"split":       stdlib.SplitFunc,
		"startswith":  makeStringMatchFunc("prefix", strings.HasPrefix),
		"strcontains": makeStringMatchFunc("substr", strings.Contains),
		"strrev":      stdlib.ReverseFunc,
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,
	}
}
