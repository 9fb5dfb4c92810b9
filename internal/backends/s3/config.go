package s3

import (
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
)

// DefaultWorkspaceKeyPrefix is Terraform's workspace_key_prefix.
const DefaultWorkspaceKeyPrefix = "env:"

// Config is backend "s3"'s configuration, decoded by the command layer
// from the backend block, -backend-config and the AWS_* environment
// variables Terraform reads for the backend's own arguments. Credentials
// not given here come from the AWS SDK's default chain (environment,
// shared files, profile), as in Terraform.
type Config struct {
	Bucket             string
	Key                string
	Region             string
	WorkspaceKeyPrefix string // empty means DefaultWorkspaceKeyPrefix

	// Encrypt asks for server-side encryption (AES256, or aws:kms with
	// KMSKeyID); SSECustomerKey is a base64 SSE-C key. Secret: never in
	// an error.
	Encrypt        bool
	KMSKeyID       string
	SSECustomerKey string
	ACL            string

	// Endpoints override the services' URLs (endpoints { s3, dynamodb,
	// sts, iam }, or the older endpoint/dynamodb_endpoint arguments).
	S3Endpoint, DynamoDBEndpoint, STSEndpoint, IAMEndpoint string
	UsePathStyle                                           bool

	// Static credentials and where else to find them. Secret fields never
	// appear in an error.
	AccessKey, SecretKey, Token string
	Profile                     string
	SharedConfigFiles           []string
	SharedCredentialsFiles      []string
	AssumeRole                  *AssumeRole

	SkipCredentialsValidation bool
	SkipRegionValidation      bool
	SkipRequestingAccountID   bool
	SkipMetadataAPICheck      bool
	SkipS3Checksum            bool
	MaxRetries                int // zero means the SDK's default (5, as Terraform)

	// UseLockfile locks with the key+".tflock" object; DynamoDBTable with
	// a DynamoDB item. Neither means no locking, as in Terraform.
	UseLockfile   bool
	DynamoDBTable string

	// Transform, when set, turns state bytes into stored bytes and back
	// (state encryption).
	Transform backends.StateTransform
	// RetryFor is how long transient failures are retried before the run
	// gives up; zero means 30 seconds.
	RetryFor time.Duration
}

// AssumeRole is the assume_role block.
type AssumeRole struct {
	RoleARN, SessionName, ExternalID, Policy, SourceIdentity string
	Duration                                                 time.Duration
	PolicyARNs                                               []string
	Tags                                                     map[string]string
	TransitiveTagKeys                                        []string
}
