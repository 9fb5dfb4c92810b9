variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter3"
}

resource "terraform_data" "str" {
  input = "again"
}

resource "terraform_data" "num" {
  input = "forty-two"
}

resource "terraform_data" "float" {
  input = null
}

resource "terraform_data" "bool" {
  input = false
}

resource "terraform_data" "tuple" {
  input = ["a", "c", "d"]
}

resource "terraform_data" "list" {
  input = tolist(["a", "x", "b"])
}

resource "terraform_data" "set" {
  input = toset(["x", "z"])
}

resource "terraform_data" "map" {
  input = tomap({ a = "1", bb = "3", c = "4" })
}

resource "terraform_data" "object" {
  input = { name = "n", size = 4, enabled = false }
}

resource "terraform_data" "nested" {
  input = {
    outer = { inner = ["x", 1], deep = { k = "w" } }
    items = [{ a = 1 }, { a = 3 }]
    nothing = null
  }
}

resource "terraform_data" "null" {
  input = "now set"
}

resource "terraform_data" "empty" {
}

resource "terraform_data" "multiline" {
  input = "line one\nline 2\nline three\n"
}

resource "terraform_data" "json" {
  input = jsonencode({ a = 1, b = [false, null], c = { d = "e" } })
}

resource "terraform_data" "secret" {
  input = var.secret
}

resource "terraform_data" "secretobj" {
  input = { user = "v", pass = "hunter3" }
}

resource "terraform_data" "trig" {
  input            = "x"
  triggers_replace = ["b"]
}

resource "terraform_data" "cnt" {
  count = 1
  input = count.index + 10
}

resource "terraform_data" "each" {
  for_each = toset(["a"])
  input    = each.key
}


resource "terraform_data" "emptyobj" {
  input = { x = 1 }
}

resource "terraform_data" "emptystr" {
  input = sensitive("nonempty")
}

resource "terraform_data" "ref" {
  input = terraform_data.str.output
}

output "s" {
  value = "bye"
}

output "n" {
  value = 42
}


output "l" {
  value = ["a", 2, true, "new"]
}

output "m" {
  value = { a = "x", b = "y", c = "z" }
}

output "o" {
  value = { name = "n", list = [1, 2], nested = { k = "w" } }
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
  value = "a\nc\n"
}

output "emptylist" {
  value = []
}

output "emptymap" {
  value = {}
}

resource "terraform_data" "added" {
  input = { a = "b" }
}

resource "terraform_data" "rtb" {
  input = "r"
  lifecycle {
    replace_triggered_by = [terraform_data.str]
  }
}

resource "terraform_data" "cbd" {
  triggers_replace = 2
  lifecycle {
    create_before_destroy = true
  }
}

output "newout" {
  value = terraform_data.added.id
}

data "terraform_remote_state" "rs" {
  backend = "local"
  config = {
    path = terraform_data.str.output
  }
}
