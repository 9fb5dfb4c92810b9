variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "instances" {
  type        = number
  description = "How many web servers."
  validation {
    condition     = var.instances >= 0
    error_message = "Cannot be negative."
  }
}

locals {
  name = "web-${var.region}"
}
