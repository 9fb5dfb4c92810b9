variable "min" {
  type    = number
  default = 3
}

resource "terraform_data" "sized" {
  for_each = { small = 1 }
  input    = each.value
  lifecycle {
    precondition {
      condition     = each.value >= var.min && each.key != ""
      error_message = "Instance ${each.key} is too small: ${each.value} < ${var.min}."
    }
  }
}
