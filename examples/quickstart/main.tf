# A first Cairn configuration: AWS resources through the Cloud Control API
# with Cairn's built-in awscc provider, written exactly as for HashiCorp's
# awscc provider. "make quickstart" runs it against the Cloud Control
# endpoint built into cairn (cairn cloudcontrol serve), so no AWS account
# is needed; with AWS credentials and no AWS_ENDPOINT_URL it runs against
# AWS itself.

terraform {
  required_providers {
    awscc = {
      source = "hashicorp/awscc"
    }
  }
}

provider "awscc" {
  region = "us-east-1"

  # Cairn merges these into every taggable resource's tags.
  default_tags {
    tags = {
      project = "cairn-quickstart"
    }
  }
}

variable "environment" {
  type    = string
  default = "dev"
}

locals {
  prefix = "cairn-${var.environment}"
}

resource "awscc_logs_log_group" "app" {
  log_group_name    = "/${local.prefix}/app"
  retention_in_days = 14
}

resource "awscc_s3_bucket" "artifacts" {
  bucket_name = "${local.prefix}-artifacts"

  versioning_configuration = {
    status = "Enabled"
  }

  lifecycle_configuration = {
    rules = [{
      id                 = "expire-old-builds"
      status             = "Enabled"
      prefix             = "builds/"
      expiration_in_days = 30
    }]
  }

  tags = [{
    key   = "environment"
    value = var.environment
  }]
}

# A role whose inline policy lets it write to the log group above.
resource "awscc_iam_role" "writer" {
  role_name = "${local.prefix}-log-writer"
  assume_role_policy_document = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = { Service = "lambda.amazonaws.com" }
      Action    = "sts:AssumeRole"
    }]
  })
  policies = [{
    policy_name = "write-logs"
    policy_document = jsonencode({
      Version = "2012-10-17"
      Statement = [{
        Effect   = "Allow"
        Action   = ["logs:CreateLogStream", "logs:PutLogEvents"]
        Resource = awscc_logs_log_group.app.arn
      }]
    })
  }]
}

resource "awscc_ec2_vpc" "main" {
  cidr_block           = "10.0.0.0/16"
  enable_dns_hostnames = true
}

resource "awscc_ec2_subnet" "a" {
  vpc_id            = awscc_ec2_vpc.main.id
  cidr_block        = "10.0.1.0/24"
  availability_zone = "us-east-1a"
}

output "bucket_arn" {
  value = awscc_s3_bucket.artifacts.arn
}

output "role_arn" {
  value = awscc_iam_role.writer.arn
}

output "subnet_id" {
  value = awscc_ec2_subnet.a.subnet_id
}
