variable "a" {
type = "string"
}
variable "b" {
  type = list
  default = []
}
variable "c" { type = "map" }
resource "terraform_data" "x" {
  input = "${var.a}"
  triggers_replace = "${
    var.a == "" ? 1 : 2
  }"
  other = "x-${var.a}"
  nested {
    variable {
      type = "string"
    }
  }
}
locals {
  a=1
  bbb = "${upper("${var.a}")}"
    # comment
  list = [1,2,
  3]
  obj = {a=1, bb = 2}
}
