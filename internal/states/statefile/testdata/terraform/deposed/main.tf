# Applied twice: the second apply replaces the object create-before-destroy
# and its provisioner fails, which leaves the new object tainted and the old
# one deposed.

variable "cmd" {
  default = "true"
}

variable "trig" {
  default = "1"
}

resource "terraform_data" "d" {
  input            = "v${var.trig}"
  triggers_replace = var.trig

  lifecycle {
    create_before_destroy = true
  }

  provisioner "local-exec" {
    command = var.cmd
  }
}
