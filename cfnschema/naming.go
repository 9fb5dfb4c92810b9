package cfnschema

import (
	"strings"

	"github.com/jinzhu/inflection"
)

// nameReplacements are applied before snake casing, so that product names
// awscc users know stay one word (CloudWatchLogs → cloudwatch_logs). They do
// not overlap, so the order they are applied in does not matter.
var nameReplacements = strings.NewReplacer(
	"CloudFormation", "Cloudformation",
	"CloudFront", "Cloudfront",
	"CloudWatch", "Cloudwatch",
	"CNAMEs", "Cnames",
	"FSx", "Fsx",
	"OTel", "Otel",
)

// AttributeName converts a CloudFormation property name into the Terraform
// attribute name awscc gives it. The rules are awscc's, byte for byte, so
// existing configurations keep working, including its odd results:
// Ipv6Address → ipv_6_address, SubnetIDs → subnet_i_ds.
//
// After the replacement table, each ASCII byte c with successor n becomes:
// an underscore before c when c is upper case, n lower case and the byte
// before c upper case (VPCId → vpc_id); c followed by an underscore when c is
// lower case and n upper case or a digit (ipv_6), or c is a digit and n a
// letter (6_address); any other letter or digit lower-cased; any other byte
// an underscore (Foo.Bar → foo_bar).
func AttributeName(property string) string {
	s := nameReplacements.Replace(strings.TrimSpace(property))
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		var n byte
		if i+1 < len(s) {
			n = s[i+1]
		}
		switch {
		case isUpper(c) && isLower(n):
			if i > 0 && isUpper(s[i-1]) {
				b.WriteByte('_')
			}
			b.WriteByte(c + 'a' - 'A')
		case isLower(c) && (isUpper(n) || isDigit(n)):
			b.WriteByte(c)
			b.WriteByte('_')
		case isDigit(c) && (isUpper(n) || isLower(n)):
			b.WriteByte(c)
			b.WriteByte('_')
		case isUpper(c):
			b.WriteByte(c + 'a' - 'A')
		case isLower(c) || isDigit(c):
			b.WriteByte(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// pluralSuffixesNeedingMarker are endings for which the inflection library
// returns the name unchanged (it already looks plural), so awscc appends
// "_plural" to keep the plural data source name distinct from the singular.
var pluralSuffixesNeedingMarker = []string{"efs", "hdfs", "nfs", "zfs", "tions", "issions", "windows", "settings"}

// PluralName returns the plural data source name awscc gives a Terraform
// type name: the jinzhu/inflection plural (with awscc's extra irregular
// lens → lenses); when inflection leaves the name unchanged, "_plural" is
// appended after the endings in pluralSuffixesNeedingMarker and "s" after a
// digit (awscc_datasync_location_s3 → awscc_datasync_location_s3s).
func PluralName(name string) string {
	// awscc registers lens → lenses as an irregular inflection; doing the
	// same here keeps inflection's package state untouched.
	if strings.HasSuffix(name, "lens") {
		return name + "es"
	}
	if plural := pluralOfLastWord(name); plural != name {
		return plural
	}
	lower := strings.ToLower(name)
	for _, suffix := range pluralSuffixesNeedingMarker {
		if strings.HasSuffix(lower, suffix) {
			return name + "_plural"
		}
	}
	if name != "" && isDigit(name[len(name)-1]) {
		return name + "s"
	}
	return name
}

// pluralOfLastWord returns inflection.Plural(name) while only showing the
// library the last underscore-separated word behind a one-letter stand-in
// prefix. Every inflection rule either looks at the end of the string
// (reaching back at most one byte before the word, which the stand-in "x_"
// reproduces as the underscore) or is anchored at the start, which never
// matches a full type name and never matches behind the stand-in either. The
// short string makes the ~80 regular expressions the library tries cheap;
// TestPluralNameMatchesInflection checks the equivalence on every AWS type.
func pluralOfLastWord(name string) string {
	i := strings.LastIndexByte(name, '_')
	if i < 0 {
		return inflection.Plural(name)
	}
	word := name[i+1:]
	p := inflection.Plural("x_" + word)
	if !strings.HasPrefix(p, "x_") {
		return inflection.Plural(name)
	}
	return name[:i+1] + p[2:]
}
