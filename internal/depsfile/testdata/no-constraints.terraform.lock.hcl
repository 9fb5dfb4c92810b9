# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "example.com/test/foo" {
  version = "2.0.0"
  hashes = [
    "h1:2neE/He2k9OjoXArrx0uoDFj4JTlp3Ou2EAZV7WXK68=",
  ]
}
