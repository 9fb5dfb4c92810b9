package s3

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/credentials/stscreds"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	ststypes "github.com/aws/aws-sdk-go-v2/service/sts/types"
)

// awsConfig resolves the SDK configuration as Terraform's backend does:
// the backend's own arguments first (static keys, profile, shared files),
// then the SDK's default chain (environment, shared files, IMDS unless
// skip_metadata_api_check), and assume_role on top of whatever that
// yields. It makes no request.
func awsConfig(ctx context.Context, cfg *Config) (aws.Config, error) {
	var opts []func(*awsconfig.LoadOptions) error
	if cfg.Region != "" {
		opts = append(opts, awsconfig.WithRegion(cfg.Region))
	}
	if cfg.AccessKey != "" || cfg.SecretKey != "" {
		if cfg.AccessKey == "" || cfg.SecretKey == "" {
			return aws.Config{}, errors.New("access_key and secret_key must be set together")
		}
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, cfg.Token)))
	}
	if cfg.Profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(cfg.Profile))
	}
	if len(cfg.SharedConfigFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedConfigFiles(cfg.SharedConfigFiles))
	}
	if len(cfg.SharedCredentialsFiles) > 0 {
		opts = append(opts, awsconfig.WithSharedCredentialsFiles(cfg.SharedCredentialsFiles))
	}
	if cfg.SkipMetadataAPICheck {
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(imds.ClientDisabled))
	}
	maxRetries := cfg.MaxRetries
	if maxRetries <= 0 {
		maxRetries = 5
	}
	opts = append(opts, awsconfig.WithRetryMaxAttempts(maxRetries+1))
	if cfg.SkipS3Checksum {
		// Many S3-compatible servers reject the SDK's default checksums.
		opts = append(opts,
			awsconfig.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired),
			awsconfig.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired))
	}
	ac, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return aws.Config{}, fmt.Errorf("loading the AWS configuration: %w", err)
	}
	if ac.Region == "" {
		return aws.Config{}, errors.New(`the "region" argument or the AWS_REGION or AWS_DEFAULT_REGION environment variable must be set`)
	}
	if cfg.AssumeRole != nil && cfg.AssumeRole.RoleARN != "" {
		ac.Credentials = assumeRoleCredentials(ac, cfg)
	}
	return ac, nil
}

// assumeRoleCredentials exchanges the base credentials for the role's,
// through STS (at endpoints.sts when set), refreshed as they expire.
func assumeRoleCredentials(base aws.Config, cfg *Config) aws.CredentialsProvider {
	ar := cfg.AssumeRole
	client := sts.NewFromConfig(base, func(o *sts.Options) {
		if cfg.STSEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.STSEndpoint)
		}
	})
	p := stscreds.NewAssumeRoleProvider(client, ar.RoleARN, func(o *stscreds.AssumeRoleOptions) {
		o.RoleSessionName = ar.SessionName
		if ar.Duration > 0 {
			o.Duration = ar.Duration
		}
		if ar.ExternalID != "" {
			o.ExternalID = aws.String(ar.ExternalID)
		}
		if ar.Policy != "" {
			o.Policy = aws.String(ar.Policy)
		}
		if ar.SourceIdentity != "" {
			o.SourceIdentity = aws.String(ar.SourceIdentity)
		}
		for _, arn := range ar.PolicyARNs {
			o.PolicyARNs = append(o.PolicyARNs, ststypes.PolicyDescriptorType{Arn: aws.String(arn)})
		}
		for k, v := range ar.Tags {
			o.Tags = append(o.Tags, ststypes.Tag{Key: aws.String(k), Value: aws.String(v)})
		}
		o.TransitiveTagKeys = ar.TransitiveTagKeys
	})
	return aws.NewCredentialsCache(p)
}

// s3Client is the client of the state bucket; httpClient, when set,
// replaces the SDK's (tests count requests with it).
func s3Client(ac aws.Config, cfg *Config, httpClient aws.HTTPClient) *s3.Client {
	return s3.NewFromConfig(ac, func(o *s3.Options) {
		if httpClient != nil {
			o.HTTPClient = httpClient
		}
		if cfg.S3Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.S3Endpoint)
		}
		o.UsePathStyle = cfg.UsePathStyle
	})
}
