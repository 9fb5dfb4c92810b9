terraform {
required_version = ">= 1.0"
}
provider "awscc" {
    region="us-east-1"
}
resource "terraform_data" "a" {
  for_each = {a=1,bb=2,ccc=3}
  input = {
    name = "x" # trailing comment
    long_name = [for k,v in var.m: upper(k) if v>1]
    tmpl = <<-EOT
      hello ${var.x}
    EOT
  }
  lifecycle {
      ignore_changes = [input]
  }
}
resource terraform_data "b" {
  input = "${var.a}${var.b}"
  x = "${var.a} "
  y = "${ var.a}"
  z = "${(var.a
  ? 1 : 2)}"
}
data "terraform_remote_state" "s" {backend="local"}
output "o" {
  value = terraform_data.a["a"].output
      sensitive = true
}
variable "l" {
  type = set
}
variable "m" {
  type = map(
  string)
}
locals {
  a = 1 +2 *3
  b = !true
  c = -1
  d = var.m[ "x" ]
  e = [
    1,
    2,
  ]
  f = {
    x = 1
    yy = 2

    zzz = 3
  }
  g = func( 1,2 , 3 )
  h = a.b[*].c
}
