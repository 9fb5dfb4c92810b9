package fieldname

import "strings"

// Camel returns the field name of attribute attr: snake_case becomes
// lowerCamelCase (log_group_name: logGroupName). An underscore is dropped
// only before a lowercase letter, which it capitalises, so over names of
// lowercase letters, digits and underscores (every Terraform attribute
// name) the mapping is injective: ipv6_1 stays ipv6_1 instead of meeting
// ipv61. Snake reverses it.
func Camel(attr string) string {
	var b strings.Builder
	b.Grow(len(attr))
	capNext := false
	for i := 0; i < len(attr); i++ {
		c := attr[i]
		// A leading underscore stays: there is no word before it to join.
		if c == '_' && i+1 < len(attr) && isLower(attr[i+1]) && b.Len() > 0 {
			capNext = true
			continue
		}
		if capNext && isLower(c) {
			c -= 'a' - 'A'
		}
		capNext = false
		b.WriteByte(c)
	}
	return b.String()
}

// Snake returns the attribute name whose field is field: each uppercase
// letter becomes an underscore and the letter in lowercase
// (logGroupName: log_group_name). For every attribute name attr of
// lowercase letters, digits and underscores, Snake(Camel(attr)) == attr;
// a field Camel cannot produce (one starting with an uppercase letter)
// still maps to a name, but to no attribute whose field it is.
func Snake(field string) string {
	var b strings.Builder
	b.Grow(len(field) + 4)
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c >= 'A' && c <= 'Z' {
			b.WriteByte('_')
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
