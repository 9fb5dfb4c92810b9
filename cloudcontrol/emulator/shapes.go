package emulator

import (
	"fmt"
	"strings"
)

// shape invents one property's value for a particular type, where the
// generic rules of generator.value would be unrealistic.
type shape func(g *generator) any

// typeShapes returns the particular shapes of typeName's properties.
// Read-only properties are filled from it; a writable property listed here
// is a server-side default, filled only when the caller left it out.
// It builds a fresh map on each call so that no table is shared mutable
// state.
func typeShapes(typeName string) map[string]shape {
	for _, group := range []func(string) map[string]shape{storageShapes, networkShapes, identityShapes, serviceShapes} {
		if m := group(typeName); m != nil {
			return m
		}
	}
	return nil
}

// storageShapes are the shapes of storage and data services: S3, DynamoDB, SQS, SNS, Kinesis and CloudWatch Logs.
func storageShapes(typeName string) map[string]shape {
	switch typeName {
	case "AWS::S3::Bucket":
		return map[string]shape{
			"Arn": func(g *generator) any { return fmt.Sprintf("arn:%s:s3:::%s", g.partition, g.name) },
			"DomainName": func(g *generator) any {
				return fmt.Sprintf("%s.s3.%s", g.name, g.dnsSuffix())
			},
			"RegionalDomainName": func(g *generator) any {
				return fmt.Sprintf("%s.s3.%s.%s", g.name, g.region, g.dnsSuffix())
			},
			"DualStackDomainName": func(g *generator) any {
				return fmt.Sprintf("%s.s3.dualstack.%s.%s", g.name, g.region, g.dnsSuffix())
			},
			"WebsiteURL": func(g *generator) any {
				return fmt.Sprintf("http://%s.s3-website-%s.%s", g.name, g.region, g.dnsSuffix())
			},
		}
	case "AWS::SNS::Topic":
		return map[string]shape{
			"TopicArn": func(g *generator) any { return g.regionalARN("sns", g.ensureName("TopicName")) },
		}
	case "AWS::SQS::Queue":
		return map[string]shape{
			"QueueUrl": func(g *generator) any {
				return fmt.Sprintf("https://sqs.%s.%s/%s/%s", g.region, g.dnsSuffix(), g.account, g.ensureName("QueueName"))
			},
			"Arn": func(g *generator) any { return g.regionalARN("sqs", g.ensureName("QueueName")) },
		}
	case "AWS::DynamoDB::Table":
		return map[string]shape{
			"Arn": func(g *generator) any { return g.regionalARN("dynamodb", "table/"+g.name) },
			"StreamArn": func(g *generator) any {
				if _, ok := g.model["StreamSpecification"]; !ok {
					return nil
				}
				return g.regionalARN("dynamodb", "table/"+g.name+"/stream/"+g.now.Format("2006-01-02T15:04:05.000"))
			},
		}
	case "AWS::Kinesis::StreamConsumer":
		return map[string]shape{
			"ConsumerARN": func(g *generator) any {
				stream, _ := g.model["StreamARN"].(string)
				if stream == "" {
					stream = g.regionalARN("kinesis", "stream/"+g.nameOrID())
				}
				name, _ := g.model["ConsumerName"].(string)
				return fmt.Sprintf("%s/consumer/%s:%d", stream, name, g.now.Unix())
			},
		}
	case "AWS::Logs::LogGroup":
		return map[string]shape{
			"Arn": func(g *generator) any {
				return fmt.Sprintf("arn:%s:logs:%s:%s:log-group:%s:*", g.partition, g.region, g.account, g.name)
			},
		}
	}
	return nil
}

// networkShapes are the shapes of networking: EC2 (VPCs, subnets, security groups) and Route 53.
func networkShapes(typeName string) map[string]shape {
	switch typeName {
	case "AWS::EC2::VPC":
		return map[string]shape{
			"VpcId": func(g *generator) any { return g.ec2ID("vpc") },
			"CidrBlockAssociations": func(g *generator) any {
				return []any{g.ec2ID("vpc-cidr-assoc")}
			},
			"DefaultNetworkAcl":    func(g *generator) any { return g.ec2ID("acl") },
			"DefaultSecurityGroup": func(g *generator) any { return g.ec2ID("sg") },
			"Ipv6CidrBlocks":       func(g *generator) any { return []any{} },
		}
	case "AWS::EC2::Subnet":
		return map[string]shape{
			"SubnetId":                func(g *generator) any { return g.ec2ID("subnet") },
			"NetworkAclAssociationId": func(g *generator) any { return g.ec2ID("aclassoc") },
			"Ipv6CidrBlocks":          func(g *generator) any { return []any{} },
			"BlockPublicAccessStates": func(g *generator) any {
				return map[string]any{"InternetGatewayBlockMode": "off"}
			},
			// AWS picks a zone when neither the zone nor its id is given.
			"AvailabilityZone": func(g *generator) any {
				if _, ok := g.model["AvailabilityZoneId"]; ok {
					return nil
				}
				return g.region + "a"
			},
		}
	case "AWS::EC2::SecurityGroup":
		return map[string]shape{
			"Id": func(g *generator) any { return g.ec2ID("sg") },
			// GroupId is the same id, kept for templates written before Id.
			"GroupId": func(g *generator) any { return g.model["Id"] },
		}
	case "AWS::Route53::HostedZone":
		return map[string]shape{
			"Id": func(g *generator) any { return "Z" + g.chars(upperAlnum, 20) },
			"NameServers": func(g *generator) any {
				n := g.rng.IntN(2000)
				return []any{
					fmt.Sprintf("ns-%d.awsdns-%02d.com", n, n%64), fmt.Sprintf("ns-%d.awsdns-%02d.net", n+512, n%64),
					fmt.Sprintf("ns-%d.awsdns-%02d.org", n+1024, n%64), fmt.Sprintf("ns-%d.awsdns-%02d.co.uk", n+1536, n%64),
				}
			},
		}
	}
	return nil
}

// identityShapes are the shapes of identity and keys: IAM and KMS.
func identityShapes(typeName string) map[string]shape {
	switch typeName {
	case "AWS::IAM::Role":
		return map[string]shape{
			"RoleId": func(g *generator) any { return "AROA" + g.chars(upperAlnum, 17) },
			"Arn":    func(g *generator) any { return g.iamARN("role") },
		}
	case "AWS::IAM::User":
		return map[string]shape{
			"Arn": func(g *generator) any { return g.iamARN("user") },
		}
	case "AWS::IAM::ManagedPolicy":
		return map[string]shape{
			"PolicyArn": func(g *generator) any { return g.iamARN("policy") },
			"PolicyId":  func(g *generator) any { return "ANPA" + g.chars(upperAlnum, 17) },
		}
	case "AWS::IAM::InstanceProfile":
		return map[string]shape{
			"Arn": func(g *generator) any { return g.iamARN("instance-profile") },
		}
	case "AWS::KMS::Key":
		return map[string]shape{
			"KeyId": func(g *generator) any { return g.uuid() },
			"Arn":   func(g *generator) any { return g.regionalARN("kms", "key/"+g.name) },
		}
	}
	return nil
}

// serviceShapes are the shapes of the other services whose identifiers referring types check: Lambda, Connect, Detective, GameLift, GuardDuty, MediaConnect and Resource Groups.
func serviceShapes(typeName string) map[string]shape {
	switch typeName {
	case "AWS::Lambda::Function":
		return map[string]shape{
			"Arn": func(g *generator) any { return g.regionalARN("lambda", "function:"+g.name) },
		}
	case "AWS::Connect::Instance":
		return map[string]shape{
			// The instance's ARN ends in its UUID, which other Connect
			// types' InstanceArn patterns insist on.
			"Id": func(g *generator) any { return g.uuid() },
		}
	case "AWS::Detective::Graph":
		return map[string]shape{
			"Arn": func(g *generator) any { return g.regionalARN("detective", "graph:"+g.chars(hexDigits, 32)) },
		}
	case "AWS::GameLift::Build":
		return map[string]shape{
			"BuildId":  func(g *generator) any { return "build-" + g.uuid() },
			"BuildArn": func(g *generator) any { return g.regionalARN("gamelift", "build/"+g.model["BuildId"].(string)) },
		}
	case "AWS::GuardDuty::Detector":
		return map[string]shape{
			"Id": func(g *generator) any { return g.chars(hexDigits, 32) },
		}
	case "AWS::MediaConnect::Flow":
		return map[string]shape{
			"FlowArn": func(g *generator) any {
				name, _ := g.model["Name"].(string)
				return g.regionalARN("mediaconnect", fmt.Sprintf("flow:1-%s-%s:%s", g.chars(upperAlnum+"abcdefghijklmnopqrstuvwxyz", 16), g.chars(hexDigits, 12), name))
			},
		}
	case "AWS::ResourceGroups::Group":
		return map[string]shape{
			"Arn": func(g *generator) any {
				return g.regionalARN("resource-groups", "group/"+g.name+"/"+g.chars(lowerAlnum, 26))
			},
		}
	}
	return nil
}

// regionalARN builds an ARN in the request's region and account.
func (g *generator) regionalARN(service, resource string) string {
	return fmt.Sprintf("arn:%s:%s:%s:%s:%s", g.partition, service, g.region, g.account, resource)
}

// ensureName returns the model's name property, inventing one (as for an
// absent writable identifier) when the caller gave none: SNS and SQS name
// the resource by an ARN or URL built from it.
func (g *generator) ensureName(prop string) string {
	if name, ok := g.model[prop].(string); ok && name != "" {
		return name
	}
	name, ok := g.generatedName(prop).(string)
	if !ok {
		return g.nameOrID()
	}
	if fifo, _ := g.model["FifoQueue"].(bool); fifo {
		name += ".fifo"
	}
	g.model[prop] = name
	g.name = name
	return name
}

// iamARN builds an IAM ARN of the given kind, with the model's Path.
func (g *generator) iamARN(kindName string) string {
	path, _ := g.model["Path"].(string)
	if path == "" {
		path = "/"
	}
	return fmt.Sprintf("arn:%s:iam::%s:%s%s%s", g.partition, g.account, kindName, path, g.name)
}

// serviceName is the ARN service namespace of a CloudFormation service
// name, where the two differ; otherwise its lower case.
func serviceName(service string) string {
	switch service {
	case "ElasticLoadBalancingV2", "ElasticLoadBalancing":
		return "elasticloadbalancing"
	case "StepFunctions":
		return "states"
	case "CertificateManager":
		return "acm"
	case "KinesisFirehose":
		return "firehose"
	case "Cognito":
		return "cognito-idp"
	case "ApiGatewayV2":
		return "apigateway"
	case "OpenSearchService":
		return "es"
	case "CloudWatch":
		return "cloudwatch"
	case "Events":
		return "events"
	case "ResourceGroups":
		return "resource-groups"
	}
	return strings.ToLower(service)
}

// globalService reports whether a service's ARNs carry no region.
func globalService(svc string) bool {
	switch svc {
	case "iam", "s3", "cloudfront", "route53", "organizations", "waf", "globalaccelerator":
		return true
	}
	return false
}

// ec2Prefix is the id prefix of an EC2 resource type.
func ec2Prefix(resource string) string {
	switch resource {
	case "VPC":
		return "vpc"
	case "Subnet":
		return "subnet"
	case "SecurityGroup":
		return "sg"
	case "InternetGateway":
		return "igw"
	case "EgressOnlyInternetGateway":
		return "eigw"
	case "RouteTable":
		return "rtb"
	case "NetworkAcl":
		return "acl"
	case "NetworkInterface":
		return "eni"
	case "Instance":
		return "i"
	case "NatGateway":
		return "nat"
	case "EIP":
		return "eipalloc"
	case "TransitGateway":
		return "tgw"
	case "TransitGatewayAttachment", "TransitGatewayVpcAttachment":
		return "tgw-attach"
	case "VPCEndpoint":
		return "vpce"
	case "LaunchTemplate":
		return "lt"
	case "KeyPair":
		return "key"
	case "Volume":
		return "vol"
	case "DHCPOptions":
		return "dopt"
	case "VPNGateway":
		return "vgw"
	case "CustomerGateway":
		return "cgw"
	case "PrefixList":
		return "pl"
	case "VPCPeeringConnection":
		return "pcx"
	case "PlacementGroup":
		return "pg"
	case "FlowLog":
		return "fl"
	}
	// Unknown types get their capitals as a prefix: CarrierGateway → cg.
	var b strings.Builder
	for _, r := range resource {
		if r >= 'A' && r <= 'Z' {
			b.WriteRune(r + 'a' - 'A')
		}
	}
	return b.String()
}
