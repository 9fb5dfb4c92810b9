package emulator

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	mathrand "math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxGenerateDepth bounds how deep a generated read-only object goes.
const maxGenerateDepth = 3

// generator invents the values AWS would assign to one new resource. Its
// random source is seeded by the operation's ClientToken, and it draws in
// a fixed order, so running a create step again yields the same values.
type generator struct {
	s         *typeSchema
	rng       *mathrand.Rand
	region    string
	account   string
	partition string
	now       time.Time
	patterns  *patternCache
	model     map[string]any
	// name is what the resource is called in ARNs and host names: its
	// name or id, once known.
	name string
}

// newGenerator seeds a generator from typeName and clientToken; an empty
// token (no idempotency wanted) gets a seed from crypto/rand.
func newGenerator(s *typeSchema, clientToken, region, account string, now time.Time, model map[string]any) *generator {
	var seed [32]byte
	if clientToken == "" {
		_, _ = rand.Read(seed[:])
	} else {
		seed = sha256.Sum256([]byte(s.typeName + "\x00" + clientToken))
	}
	src := mathrand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:16]))
	return &generator{
		s: s, rng: mathrand.New(src), region: region, account: account,
		partition: partitionOf(region), now: now.UTC(), model: model,
	}
}

// partitionOf names the AWS partition of a region.
func partitionOf(region string) string {
	switch {
	case strings.HasPrefix(region, "cn-"):
		return "aws-cn"
	case strings.HasPrefix(region, "us-gov-"):
		return "aws-us-gov"
	case strings.HasPrefix(region, "us-isob-"):
		return "aws-iso-b"
	case strings.HasPrefix(region, "us-iso-"):
		return "aws-iso"
	}
	return "aws"
}

// dnsSuffix is the partition's service domain.
func (g *generator) dnsSuffix() string {
	if g.partition == "aws-cn" {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}

const (
	lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	upperAlnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexDigits  = "0123456789abcdef"
)

// chars draws n characters from alphabet.
func (g *generator) chars(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.rng.IntN(len(alphabet))]
	}
	return string(b)
}

// uuid draws a version-4 UUID.
func (g *generator) uuid() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], g.rng.Uint64())
	binary.LittleEndian.PutUint64(b[8:], g.rng.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// ec2ID draws an EC2-style id: prefix, dash, 17 hex digits.
func (g *generator) ec2ID(prefix string) string { return prefix + "-" + g.chars(hexDigits, 17) }

// value invents a value for the property name described by node.
func (g *generator) value(name string, node map[string]any, depth int) any {
	node = g.s.deref(node)
	if node == nil {
		node = map[string]any{}
	}
	if enum, ok := node["enum"].([]any); ok && len(enum) > 0 && enum[0] != nil {
		return deepCopy(enum[0])
	}
	switch schemaType(node) {
	case "array":
		return g.array(name, node, depth)
	case "object":
		return g.object(node, depth)
	case "integer", "number":
		// The least the schema allows, else zero; versions and the like
		// count from one, as AWS numbers them (an alias's
		// ContactFlowModuleVersion has minimum 1).
		if min, ok := node["minimum"].(json.Number); ok {
			if f, err := min.Float64(); err == nil && f > 0 {
				return min
			}
		}
		if countsFromOne(name) {
			return json.Number("1")
		}
		return json.Number("0")
	case "boolean":
		return false
	}
	return g.fit(g.stringValue(name, node), node)
}

// array invents an empty array, or as many elements as minItems asks.
func (g *generator) array(name string, node map[string]any, depth int) []any {
	out := []any{}
	n, _ := intOf(node["minItems"])
	items, _ := node["items"].(map[string]any)
	for i := 0; i < n && i < maxSampleRepeat && items != nil; i++ {
		out = append(out, g.value(name, items, depth+1))
	}
	return out
}

// object invents an object holding a value for each scalar or nested
// property, down to maxGenerateDepth.
func (g *generator) object(node map[string]any, depth int) map[string]any {
	out := map[string]any{}
	if depth >= maxGenerateDepth {
		return out
	}
	props, _ := node["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		sub, _ := props[n].(map[string]any)
		out[n] = g.value(n, sub, depth+1)
	}
	return out
}

// stringValue picks a string by what the property's name says it holds.
func (g *generator) stringValue(name string, node map[string]any) string {
	lower := strings.ToLower(name)
	format, _ := node["format"].(string)
	switch {
	case strings.HasSuffix(name, "Arn") || strings.HasSuffix(name, "ARN"):
		return g.arn(strings.TrimSuffix(strings.TrimSuffix(name, "Arn"), "ARN"))
	case format == "date-time" || strings.HasSuffix(name, "Time") || strings.HasSuffix(name, "Timestamp") ||
		strings.HasSuffix(name, "Date") || strings.HasSuffix(name, "At"):
		return g.now.Format(time.RFC3339)
	case g.s.service == "EC2" && (name == "Id" || strings.EqualFold(name, g.s.resource+"Id")):
		return g.ec2ID(ec2Prefix(g.s.resource))
	case name == "Id" || strings.HasSuffix(name, "Id"):
		return g.uuid()
	case strings.HasSuffix(name, "Name"):
		if g.name != "" {
			return g.name
		}
		return g.s.resource + "-" + g.chars(upperAlnum, 12)
	case strings.HasSuffix(lower, "url") || strings.HasSuffix(lower, "uri"):
		return "https://" + g.host() + "/"
	case strings.HasSuffix(lower, "endpoint") || strings.HasSuffix(lower, "domainname"):
		return g.host()
	case strings.HasSuffix(name, "Status") || strings.HasSuffix(name, "State"):
		return "ACTIVE"
	case strings.HasSuffix(name, "Message") || strings.HasSuffix(name, "Reason"):
		return ""
	}
	return g.chars(upperAlnum, 10)
}

// countsFromOne reports whether a number property's name says it is an
// ordinal AWS starts at 1: a version, revision or generation.
func countsFromOne(name string) bool {
	for _, suffix := range []string{"Version", "Revision", "Generation", "VersionNumber"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// host is the resource's host name in its service's regional domain.
func (g *generator) host() string {
	return fmt.Sprintf("%s.%s.%s.%s", strings.ToLower(g.nameOrID()), serviceName(g.s.service), g.region, g.dnsSuffix())
}

// nameOrID returns the resource's name, else its own id (Id or
// <Resource>Id, as AWS builds ARNs from them), drawing one if neither is
// known.
func (g *generator) nameOrID() string {
	if g.name == "" {
		g.name = g.ownID()
	}
	if g.name == "" {
		g.name = g.chars(lowerAlnum, 10)
	}
	return g.name
}

// ownID is the model's id of the resource itself, "" when it has none.
func (g *generator) ownID() string {
	for _, prop := range []string{"Id", g.s.resource + "Id"} {
		if id, ok := g.model[prop].(string); ok && id != "" {
			return id
		}
	}
	return ""
}

// arn builds an ARN for a resource of the given kind (Role, LogGroup, ""
// for the resource itself) named after the resource.
func (g *generator) arn(kindName string) string {
	if kindName == "" {
		kindName = g.s.resource
	}
	svc := serviceName(g.s.service)
	region := g.region
	if globalService(svc) {
		region = ""
	}
	return fmt.Sprintf("arn:%s:%s:%s:%s:%s/%s", g.partition, svc, region, g.account, kebab(kindName), g.nameOrID())
}

// fit makes a generated string satisfy the node's pattern and length
// bounds when one of a few id shapes, or a string drawn from the pattern,
// can; otherwise it keeps v, which at worst makes an answer the schema
// would not accept as input. Lengths aim at v's own, moved into the
// schema's bounds.
func (g *generator) fit(v string, node map[string]any) string {
	if g.fits(v, node) {
		return v
	}
	want := lengthWithin(len(v), node)
	candidates := []string{
		strings.ToLower(v), g.uuid(), g.chars(lowerAlnum, 10), g.chars(upperAlnum, 10),
		g.chars("0123456789", 12), g.chars(hexDigits, 17),
	}
	if want >= 0 {
		candidates = append(candidates, g.chars(hexDigits, want), g.chars(upperAlnum, want))
	}
	for _, c := range candidates {
		if g.fits(c, node) {
			return c
		}
	}
	if pattern, ok := node["pattern"].(string); ok {
		for i := range 8 {
			// Natural lengths first; then aim at the bounds.
			aim := -1
			if i >= 4 {
				aim = want
			}
			c, ok := g.sample(pattern, aim)
			if !ok {
				break
			}
			if real := g.realARN(c); g.fits(real, node) {
				return real
			}
			if g.fits(c, node) {
				return c
			}
		}
	}
	return v
}

// realARN puts the request's partition, region and account into an ARN
// drawn from a pattern, whose own are random: patterns say
// arn:[a-z0-9-]{1,20}: where every other schema that takes the ARN says
// arn:aws:. Anything else is returned as it is.
func (g *generator) realARN(s string) string {
	parts := strings.SplitN(s, ":", 6)
	if len(parts) < 6 || parts[0] != "arn" {
		return s
	}
	parts[1] = g.partition
	if parts[3] != "" {
		parts[3] = g.region
	}
	if parts[4] != "" {
		parts[4] = g.account
	}
	return strings.Join(parts, ":")
}

// lengthWithin moves n into node's minLength..maxLength, or -1 when the
// node bounds no length.
func lengthWithin(n int, node map[string]any) int {
	lo, hasLo := intOf(node["minLength"])
	hi, hasHi := intOf(node["maxLength"])
	if !hasLo && !hasHi {
		return -1
	}
	if hasLo {
		n = max(n, lo)
	}
	if hasHi {
		n = min(n, hi)
	}
	return n
}

// fits reports whether s meets node's pattern, minLength and maxLength.
// A pattern that does not compile constrains nothing here: validation
// reports it where it matters.
func (g *generator) fits(s string, node map[string]any) bool {
	if n, ok := intOf(node["maxLength"]); ok && len(s) > n {
		return false
	}
	if n, ok := intOf(node["minLength"]); ok && len(s) < n {
		return false
	}
	pattern, ok := node["pattern"].(string)
	if !ok {
		return true
	}
	re, err := g.patterns.compile(pattern)
	if err != nil {
		return true
	}
	return re.MatchString(s)
}

// patternCache keeps the compiled patterns a handler's generators test
// invented values against; compiling an ECMAScript pattern costs more than
// inventing the value. Safe for concurrent use; a nil cache compiles
// every time.
type patternCache struct{ m sync.Map }

// compile returns the compiled pattern, from the cache when it is there.
func (c *patternCache) compile(pattern string) (jsonschema.Regexp, error) {
	if c != nil {
		if re, ok := c.m.Load(pattern); ok {
			return re.(jsonschema.Regexp), nil
		}
	}
	re, err := compilePattern(pattern)
	if err == nil && c != nil {
		c.m.Store(pattern, re)
	}
	return re, err
}

// intOf reads a JSON integer.
func intOf(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return int(i), err == nil
}

// kebab turns a CamelCase resource name into the ARN form: LogGroup →
// log-group, VPC → vpc.
func kebab(s string) string {
	var b strings.Builder
	for i, r := range s {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			prev := s[i-1]
			nextLower := i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z'
			if prev >= 'a' && prev <= 'z' || (prev >= 'A' && prev <= 'Z' && nextLower) {
				b.WriteByte('-')
			}
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}
