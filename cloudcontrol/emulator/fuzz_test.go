package emulator

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// fuzzTypes are the schemas FuzzCreate drives, picked by the input's
// first byte.
var fuzzTypes = []string{
	"AWS::S3::Bucket", "AWS::Logs::LogGroup", "AWS::IAM::Role",
	"AWS::EC2::VPC", "AWS::EC2::Subnet", "AWS::WAFv2::RegexPatternSet",
}

// FuzzCreate: whatever the desired model, Create answers SUCCESS or
// FAILED without panicking, a SUCCESS model carries its identifier and
// reads back, and an update with the same model succeeds.
func FuzzCreate(f *testing.F) {
	seeds := []string{
		`{}`, `{"BucketName": "b", "VersioningConfiguration": {"Status": "Enabled"}}`,
		`{"LogGroupName": "/a", "RetentionInDays": 7, "Tags": [{"Key": "k", "Value": "v"}]}`,
		`{"AssumeRolePolicyDocument": {"Statement": []}, "Path": "/x/"}`,
		`{"CidrBlock": "10.0.0.0/16", "VpcEncryptionControl": {"ResourceExclusions": {}}}`,
		`{"VpcId": "vpc-1", "AvailabilityZoneId": "use2-az1"}`,
		`{"Name": "n", "Scope": "REGIONAL", "RegularExpressionList": ["(a+)+$"]}`,
		`{"Arn": null, "Tags": {"Key": 1}}`, `[]`, `null`, `{"a":`,
	}
	for i, s := range seeds {
		f.Add(byte(i), "token", s)
	}
	handlers := make([]cloudcontrol.Handler, len(fuzzTypes))
	for i, typeName := range fuzzTypes {
		handlers[i], _ = newTestHandler(f, typeName)
	}
	f.Fuzz(func(t *testing.T, which byte, token, text string) {
		desired, err := decodeObject([]byte(text))
		if err != nil {
			return
		}
		i := int(which) % len(fuzzTypes)
		h, typeName := handlers[i], fuzzTypes[i]
		ctx := context.Background()
		ev := h.Create(ctx, request(typeName, token, desired))
		switch ev.Status {
		case cloudcontrol.StatusFailed:
			return
		case cloudcontrol.StatusSuccess:
		default:
			t.Fatalf("create = %s", ev.Status)
		}
		s, _ := parseSchema(typeName, mustRead(t, schemaFile(typeName)))
		id, err := s.identifierOf(ev.Model)
		if err != nil {
			t.Fatalf("created model without identifier: %v", err)
		}
		mustSucceed(t, "read", h.Read(ctx, &cloudcontrol.Request{TypeName: typeName, Identifier: id}))
		mustSucceed(t, "update", h.Update(ctx, &cloudcontrol.Request{
			TypeName: typeName, Identifier: id, Desired: ev.Model, Previous: ev.Model,
		}))
		mustSucceed(t, "delete", h.Delete(ctx, &cloudcontrol.Request{TypeName: typeName, Identifier: id}))
	})
}

// FuzzSample: for any pattern and wanted length, sampling ends without
// panicking and within a bounded size; a string drawn from a plain
// pattern (classes, literals, groups, repeats, alternatives) matches it.
func FuzzSample(f *testing.F) {
	for _, s := range []string{`^[a-z]+$`, `^([a-z0-9A-Z]*)$`, `(a|bc){2,}x?`, `^arn:aws:[a-z-]+:\d{12}:x/.+$`, `(((a*)*)*)`, `[^/]{3,9}`} {
		f.Add(s, 22)
	}
	f.Fuzz(func(t *testing.T, pattern string, want int) {
		g := newGenerator(&typeSchema{typeName: "AWS::X::Y"}, "seed", testRegion, testAccount, time.Time{}, nil)
		got, ok := g.sample(pattern, want)
		if !ok {
			return
		}
		if len(got) > 64*maxSampleLen {
			t.Fatalf("sample of %q (want %d) is %d bytes", pattern, want, len(got))
		}
		// Matching is checked on small cases: Go's matcher is linear,
		// but a long pattern over a long string is slow to fuzz.
		if len(pattern) > 128 || len(got) > 4096 || !plainPattern(pattern) {
			return
		}
		if re, err := regexp.Compile(pattern); err == nil && !re.MatchString(got) {
			t.Fatalf("sample(%q, %d) = %q does not match", pattern, want, got)
		}
	})
}

// plainPattern reports whether a pattern uses only what sample always
// honours: no anchors or boundaries inside, no flags, no negated or
// Unicode classes, no escapes.
func plainPattern(p string) bool {
	inner := strings.TrimSuffix(strings.TrimPrefix(p, "^"), "$")
	return !strings.ContainsAny(inner, `^$\(?:`) && !strings.Contains(p, "(?") && utf8.ValidString(p) && isASCII(p)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 {
			return false
		}
	}
	return true
}
