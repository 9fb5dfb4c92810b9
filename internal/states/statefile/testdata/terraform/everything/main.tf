# Every kind of entry a plain apply of the built-in terraform_data resource
# produces: no key, count keys, for_each keys, dependencies,
# create_before_destroy, sensitive attribute paths (including index steps),
# HTML characters that encoding/json escapes, and an output of every type.

variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

resource "terraform_data" "a" {
  input = "x<&>\u2028 ünï"
}

resource "terraform_data" "c" {
  count = 12
  input = count.index * 1.5
}

resource "terraform_data" "e" {
  for_each         = toset(["b", "a", "B"])
  input            = { k = each.key, n = [1, 2], big = 12345678901234567890 }
  triggers_replace = [terraform_data.a.id]
}

resource "terraform_data" "s" {
  input = var.secret

  lifecycle {
    create_before_destroy = true
  }
}

resource "terraform_data" "nested" {
  input = { a = var.secret, l = ["plain", var.secret], m = { k = var.secret } }
}

output "str" {
  value = "s"
}

output "num" {
  value = 1.5
}

output "bool" {
  value = true
}

output "list" {
  value = tolist(["a"])
}

output "set" {
  value = toset(["b", "a"])
}

output "map" {
  value = tomap({ a = 1 })
}

output "obj" {
  value = { a = 1, b = "x", c = null }
}

output "tuple" {
  value = [1, "a", false]
}

output "empty_list" {
  value = tolist([])
}

output "secret" {
  value     = var.secret
  sensitive = true
}

output "from_resource" {
  value     = terraform_data.s.output
  sensitive = true
}
