package command

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/cairn-iac/cairn/internal/cfnregistry"
)

// runCfnFetch implements "cairn cfn fetch": download the current schemas
// of the CloudFormation registry (ListTypes, DescribeType) into the cache
// that later runs lay over the built-in schemas. Credentials, region and
// endpoint come from the AWS SDK's usual sources (environment, shared
// files, AWS_ENDPOINT_URL) unless the flags say otherwise.
func runCfnFetch(m *Meta, args []string) int {
	fs := newFlagSet("cfn fetch", m.Stderr)
	var region, profile, endpoint, dir, types string
	var workers int
	fs.StringVar(&region, "region", "", "AWS region of the registry (AWS_REGION or the shared configuration when not set).")
	fs.StringVar(&profile, "profile", "", "Named profile of the shared configuration.")
	fs.StringVar(&endpoint, "endpoint", "", "CloudFormation API endpoint URL.")
	fs.StringVar(&dir, "dir", "", "Directory to write the schemas to (the cache later runs read when not set).")
	fs.StringVar(&types, "types", "", "Comma-separated type names or prefixes ending in :: (AWS::S3::); every AWS type when not set.")
	fs.IntVar(&workers, "parallelism", 4, "Concurrent DescribeType calls.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "cfn fetch takes no arguments.")
	}
	if dir == "" {
		dir = m.cfnCacheDir()
		if dir == "" {
			return m.errorf("No cache directory", "Neither CAIRN_CFN_CACHE, XDG_CACHE_HOME nor HOME is set: say where to write the schemas with -dir=DIR.")
		}
	} else {
		dir = m.absPath(dir)
	}
	ctx, stop := m.interruptible()
	defer stop()
	var loadOpts []func(*awsconfig.LoadOptions) error
	if region != "" {
		loadOpts = append(loadOpts, awsconfig.WithRegion(region))
	}
	if profile != "" {
		loadOpts = append(loadOpts, awsconfig.WithSharedConfigProfile(profile))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, loadOpts...)
	if err != nil {
		return m.errorf("Cannot configure the AWS client", "%s.", err)
	}
	if cfg.Region == "" {
		return m.errorf("No AWS region", "Say which region's registry to read with -region, AWS_REGION or the shared configuration.")
	}
	client := cloudformation.NewFromConfig(cfg, func(o *cloudformation.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})
	var filters []string
	for _, t := range strings.Split(types, ",") {
		if t = strings.TrimSpace(t); t != "" {
			filters = append(filters, t)
		}
	}
	res, err := cfnregistry.Fetch(ctx, client, dir, cfnregistry.FetchOptions{Types: filters, Workers: workers})
	if err != nil {
		return m.errorf("Failed to fetch CloudFormation schemas", "%s. Schemas already written to %s stay; run the command again to finish.", err, dir)
	}
	fmt.Fprintf(m.Stdout, "Fetched %d CloudFormation resource schemas from the %s registry into %s.\n", len(res.Written), cfg.Region, dir)
	if len(res.Written) == 0 {
		fmt.Fprintln(m.Stdout, "No type matched; nothing was written.")
	}
	return 0
}
