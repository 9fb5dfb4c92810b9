# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "example.com/test/bar" {
  version     = "0.5.0"
  constraints = ">= 0.1.0, < 2.0.0"
  hashes = [
    "h1:2CLwys3ohFKrY1aozMRrKU37k9HgTXBXFSw+J2OckDw=",
  ]
}

provider "example.com/test/foo" {
  version     = "1.3.0"
  constraints = "~> 1.2"
  hashes = [
    "h1:zdgCMKBMsXdb1kCjAfRuYG+Cfy2xmsuURrEayLSeOOA=",
  ]
}
