run "m" {
  providers = {
    terraform = terraform.nowhere
  }
}

