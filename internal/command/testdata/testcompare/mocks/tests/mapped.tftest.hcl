mock_provider "terraform" {
  alias = "fake"
  mock_resource "terraform_data" {
    defaults = {
      output = "fake"
    }
  }
}

run "mapped" {
  providers = {
    terraform = terraform.fake
  }
  assert {
    condition     = terraform_data.real.output == "fake"
    error_message = "real: ${terraform_data.real.output}"
  }
  assert {
    condition     = terraform_data.mocked.output == "m"
    error_message = "mocked: ${terraform_data.mocked.output}"
  }
}

