variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

resource "terraform_data" "str" {
  input = "hello"
}

resource "terraform_data" "num" {
  input = 42
}

resource "terraform_data" "float" {
  input = 3.14
}

resource "terraform_data" "bool" {
  input = true
}

resource "terraform_data" "tuple" {
  input = ["a", "b", "c"]
}

resource "terraform_data" "list" {
  input = tolist(["a", "b"])
}

resource "terraform_data" "set" {
  input = toset(["y", "x"])
}

resource "terraform_data" "map" {
  input = tomap({ a = "1", bb = "2" })
}

resource "terraform_data" "object" {
  input = { name = "n", size = 3, enabled = false }
}

resource "terraform_data" "nested" {
  input = {
    outer = { inner = ["x", 1], deep = { k = "v" } }
    items = [{ a = 1 }, { a = 2 }]
    nothing = null
  }
}

resource "terraform_data" "null" {
  input = null
}

resource "terraform_data" "empty" {
}

resource "terraform_data" "multiline" {
  input = "line one\nline two\nline three\n"
}

resource "terraform_data" "json" {
  input = jsonencode({ a = 1, b = [true, null], c = { d = "e" } })
}

resource "terraform_data" "secret" {
  input = var.secret
}

resource "terraform_data" "secretobj" {
  input = { user = "u", pass = var.secret }
}

resource "terraform_data" "trig" {
  input            = "x"
  triggers_replace = ["a"]
}

resource "terraform_data" "cnt" {
  count = 2
  input = count.index
}

resource "terraform_data" "each" {
  for_each = toset(["a", "b"])
  input    = each.key
}

resource "terraform_data" "emptylist" {
  input = []
}

resource "terraform_data" "emptyobj" {
  input = {}
}

resource "terraform_data" "emptystr" {
  input = ""
}

resource "terraform_data" "ref" {
  input = terraform_data.str.output
}

output "s" {
  value = "hello"
}

output "n" {
  value = 42
}

output "b" {
  value = true
}

output "l" {
  value = ["a", 1, true]
}

output "m" {
  value = { a = "x", b = "y" }
}

output "o" {
  value = { name = "n", list = [1, 2], nested = { k = "v" } }
}

output "sens" {
  value     = var.secret
  sensitive = true
}

output "nul" {
  value = null
}

output "computed" {
  value = terraform_data.str.id
}

output "ml" {
  value = "a\nb\n"
}

output "emptylist" {
  value = []
}

output "emptymap" {
  value = {}
}
