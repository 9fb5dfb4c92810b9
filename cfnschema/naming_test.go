package cfnschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAttributeName(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"acronym then word":       {"an upper run before Upper+lower gets an underscore", "VPCId", "vpc_id"},
		"camel":                   {"plain camel case", "VpcId", "vpc_id"},
		"kms":                     {"", "KMSKeyId", "kms_key_id"},
		"https":                   {"", "HTTPSPort", "https_port"},
		"url":                     {"a trailing acronym stays one word", "WebsiteURL", "website_url"},
		"db":                      {"", "DBInstanceIdentifier", "db_instance_identifier"},
		"upper before digit":      {"an upper letter before a digit gets no underscore", "S3Bucket", "s3_bucket"},
		"digits in acronym":       {"", "AWS99Thing", "aws99_thing"},
		"ec2":                     {"", "EC2InstanceType", "ec2_instance_type"},
		"http2":                   {"", "ProtocolHTTP2Enabled", "protocol_http2_enabled"},
		"ttl":                     {"", "MaxTTL", "max_ttl"},
		"cloudwatch replacement":  {"product names from the replacement table stay one word", "CloudWatchLogs", "cloudwatch_logs"},
		"cloudformation":          {"", "CloudFormationStack", "cloudformation_stack"},
		"cloudfront":              {"", "CloudFrontOriginAccessIdentity", "cloudfront_origin_access_identity"},
		"cnames":                  {"the only plural acronym awscc special-cases", "CNAMEs", "cnames"},
		"fsx":                     {"", "FSxWindows", "fsx_windows"},
		"otel":                    {"", "OTelEnrichment", "otel_enrichment"},
		"lower camel":             {"", "dataSourceName", "data_source_name"},
		"dot":                     {"any other byte becomes an underscore", "Foo.Bar", "foo_bar"},
		"lower before digit":      {"awscc's ugly but shipped digit handling", "Ipv6Address", "ipv_6_address"},
		"ipv6 cidr":               {"", "IPv6CidrBlock", "i_pv_6_cidr_block"},
		"oauth2":                  {"", "OAuth2Config", "o_auth_2_config"},
		"plural acronym vpcs":     {"plural acronyms split", "VPCs", "vp_cs"},
		"plural acronym ids":      {"", "SubnetIDs", "subnet_i_ds"},
		"plural acronym ips":      {"", "NumberOfIPs", "number_of_i_ps"},
		"spaces trimmed":          {"", "  Name ", "name"},
		"id":                      {"", "Id", "id"},
		"already snake":           {"", "already_snake", "already_snake"},
		"non-ascii becomes bytes": {"each non-ASCII byte becomes an underscore", "Né", "n__"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, AttributeName(tc.in)); diff != "" {
				t.Errorf("%s\nAttributeName(%q): -want +got:\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

func TestPluralName(t *testing.T) {
	cases := map[string]struct {
		reason string
		in     string
		want   string
	}{
		"regular":            {"", "awscc_s3_bucket", "awscc_s3_buckets"},
		"y to ies":           {"", "awscc_acmpca_certificate_authority", "awscc_acmpca_certificate_authorities"},
		"sis to ses":         {"", "awscc_quicksight_analysis", "awscc_quicksight_analyses"},
		"status":             {"", "awscc_foo_status", "awscc_foo_statuses"},
		"unchanged tions":    {"inflection keeps the name, awscc appends _plural", "awscc_ec2_dhcp_options", "awscc_ec2_dhcp_options_plural"},
		"unchanged nfs":      {"", "awscc_datasync_location_nfs", "awscc_datasync_location_nfs_plural"},
		"unchanged issions":  {"", "awscc_ec2_vpc_endpoint_service_permissions", "awscc_ec2_vpc_endpoint_service_permissions_plural"},
		"unchanged settings": {"", "awscc_foo_settings", "awscc_foo_settings_plural"},
		"windows":            {"", "awscc_fsx_windows", "awscc_fsx_windows_plural"},
		"digit":              {"a trailing digit gets an s", "awscc_datasync_location_s3", "awscc_datasync_location_s3s"},
		"lens":               {"awscc's extra irregular", "awscc_s3_storage_lens", "awscc_s3_storage_lenses"},
		"x to xes":           {"", "awscc_foo_box", "awscc_foo_boxes"},
		"fe to ves":          {"", "awscc_foo_knife", "awscc_foo_knives"},
		"irregular person":   {"", "awscc_foo_person", "awscc_foo_people"},
		"already plural":     {"other names inflection keeps are returned unchanged", "awscc_observabilityadmin_telemetry_pipelines", "awscc_observabilityadmin_telemetry_pipelines"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, PluralName(tc.in)); diff != "" {
				t.Errorf("%s\nPluralName(%q): -want +got:\n%s", tc.reason, tc.in, diff)
			}
		})
	}
}

func TestParseTypeName(t *testing.T) {
	cases := map[string]struct {
		reason   string
		in       string
		prefixes map[string]string
		want     string
		wantErr  bool
	}{
		"aws":              {"the AWS organisation becomes awscc", "AWS::EC2::Instance", nil, "awscc_ec2_instance", false},
		"snake resource":   {"", "AWS::EC2::FlowLog", nil, "awscc_ec2_flow_log", false},
		"acronym resource": {"", "AWS::EC2::DHCPOptions", nil, "awscc_ec2_dhcp_options", false},
		"service lowered":  {"the service part is lower-cased whole", "AWS::ElasticLoadBalancingV2::LoadBalancer", nil, "awscc_elasticloadbalancingv2_load_balancer", false},
		"iot":              {"", "AWS::IoTFleetWise::Campaign", nil, "awscc_iotfleetwise_campaign", false},
		"other org":        {"other organisations use their own name", "Initech::TPS::Report", nil, "initech_tps_report", false},
		"configured":       {"", "Initech::TPS::Report", map[string]string{"initech": "awscc_initech"}, "awscc_initech_tps_report", false},
		"aws replaced":     {"", "AWS::S3::Bucket", map[string]string{"aws": "cloud"}, "cloud_s3_bucket", false},
		"two parts":        {"", "AWS::EC2", nil, "", true},
		"short part":       {"parts are 2 to 64 characters", "AWS::X::Thing", nil, "", true},
		"bad character":    {"", "AWS::EC2::Flow-Log", nil, "", true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := newOptions(nil)
			for k, v := range tc.prefixes {
				WithTypeNamePrefix(k, v)(&o)
			}
			got, err := parseTypeName(tc.in, o.prefixes)
			if (err != nil) != tc.wantErr {
				t.Fatalf("%s\nparseTypeName(%q) error = %v, want error %v", tc.reason, tc.in, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, got.Terraform); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
