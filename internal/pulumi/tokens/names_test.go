package tokens

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResourceAndFunction(t *testing.T) {
	cases := map[string]struct {
		reason   string
		pkg      string
		typeName string
		resource string
		function string
		wantErr  bool
	}{
		"ServiceAndName": {
			reason: "the word after the provider is the module", pkg: "awscc", typeName: "awscc_s3_bucket",
			resource: "awscc:s3/bucket:Bucket", function: "awscc:s3/getBucket:getBucket",
		},
		"Plural": {
			reason: "a plural data source keeps its plural", pkg: "awscc", typeName: "awscc_s3_buckets",
			resource: "awscc:s3/buckets:Buckets", function: "awscc:s3/getBuckets:getBuckets",
		},
		"ManyWords": {
			reason: "words after the service join in camel case", pkg: "awscc", typeName: "awscc_ec2_vpc_endpoint_service",
			resource: "awscc:ec2/vpcEndpointService:VpcEndpointService", function: "awscc:ec2/getVpcEndpointService:getVpcEndpointService",
		},
		"NoService": {
			reason: "a single word has no service: module index", pkg: "terraform", typeName: "terraform_data",
			resource: "terraform:index/data:Data", function: "terraform:index/getData:getData",
		},
		"Digits": {
			reason: "digits stay inside words", pkg: "awscc", typeName: "awscc_ec2_ipv6_cidr_block",
			resource: "awscc:ec2/ipv6CidrBlock:Ipv6CidrBlock", function: "awscc:ec2/getIpv6CidrBlock:getIpv6CidrBlock",
		},
		"DigitService": {
			reason: "a service may be digits and letters", pkg: "awscc", typeName: "awscc_s3express_directory_bucket",
			resource: "awscc:s3express/directoryBucket:DirectoryBucket", function: "awscc:s3express/getDirectoryBucket:getDirectoryBucket",
		},
		"WrongProvider":   {reason: "the type must belong to the provider", pkg: "awscc", typeName: "aws_s3_bucket", wantErr: true},
		"ProviderOnly":    {reason: "no name after the provider", pkg: "awscc", typeName: "awscc", wantErr: true},
		"TrailingUnder":   {reason: "an empty word", pkg: "awscc", typeName: "awscc_s3_", wantErr: true},
		"DoubleUnder":     {reason: "an empty word", pkg: "awscc", typeName: "awscc_s3__bucket", wantErr: true},
		"Upper":           {reason: "type names are lowercase", pkg: "awscc", typeName: "awscc_S3_bucket", wantErr: true},
		"NameStartsDigit": {reason: "a Pulumi name must start with a letter", pkg: "awscc", typeName: "awscc_s3_2fa", wantErr: true},
		"EmptyProvider":   {reason: "no provider name", pkg: "", typeName: "_x", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, rerr := Resource(tc.pkg, tc.typeName)
			f, ferr := Function(tc.pkg, tc.typeName)
			if tc.wantErr {
				if rerr == nil || ferr == nil {
					t.Fatalf("%s: want errors, got %v %v", tc.reason, r, f)
				}
				return
			}
			if rerr != nil || ferr != nil {
				t.Fatalf("%s: %v %v", tc.reason, rerr, ferr)
			}
			if diff := cmp.Diff(tc.resource, r.String()); diff != "" {
				t.Errorf("%s: Resource -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.function, f.String()); diff != "" {
				t.Errorf("%s: Function -want +got:\n%s", tc.reason, diff)
			}
			for _, tok := range []Token{r, f} {
				back, err := Parse(tok.String())
				if err != nil || back != tok {
					t.Errorf("Parse(%q) = %v, %v; want %v", tok, back, err, tok)
				}
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, s := range []string{"", "a:b:c", "a:b/c", "a:b/c:d:e", ":m/x:X", "a:/x:X", "a:m/:X", "a:m/x:", "a:m/x/y:Y"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q): want an error", s)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("awscc:s3/bucket:Bucket")
	f.Add("a:b:c")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := Parse(s)
		if err == nil && tok.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, tok.String())
		}
	})
}
