# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "example.com/test/foo" {
  version     = "1.2.3"
  constraints = ">= 1.0.0, ~> 1.2.0, != 1.2.0, 1.2.3, < 1.5.0"
  hashes = [
    "h1:IIPHvUiTMBUuSxlDbNckj5fGFO/8YwSMd8v5+VJXE4g=",
  ]
}
