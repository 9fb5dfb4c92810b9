# A data resource (mode "data") next to a managed one.

data "terraform_remote_state" "o" {
  backend = "local"
  config = {
    path = "${path.module}/source.tfstate"
  }
}

resource "terraform_data" "a" {
  input = data.terraform_remote_state.o.outputs.greeting
}
