# Variables the module does not declare are not its inputs: no error.
variables {
  unused = "file"
}

run "undeclared" {
  command = plan
  variables {
    other = 1
  }
  assert {
    condition     = terraform_data.app.input == "app"
    error_message = "wrong input"
  }
}
