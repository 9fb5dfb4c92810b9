mock_provider "terraform" {
  alias = "x"
  mock_resource "terraform_data" {
    defaults = {
      output = "fake"
    }
  }
}

run "alias_only" {
  assert {
    condition     = terraform_data.mocked.output == "fake"
    error_message = "mocked: ${terraform_data.mocked.output}"
  }
  assert {
    condition     = terraform_data.real.output == "r"
    error_message = "real: ${terraform_data.real.output}"
  }
}

