override_resource {
  target = terraform_data.real
  values = {
    output = "file"
  }
}

run "file_level" {
  assert {
    condition     = terraform_data.real.output == "file"
    error_message = "real: ${terraform_data.real.output}"
  }
}

run "plan_keeps_config" {
  command = plan
  assert {
    condition     = terraform_data.real.input == "r"
    error_message = "the configuration's value is kept"
  }
}

run "wrong_override" {
  assert {
    condition     = terraform_data.real.output == "something else"
    error_message = "real: ${terraform_data.real.output}"
  }
}
