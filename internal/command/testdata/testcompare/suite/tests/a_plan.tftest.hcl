variables {
  name = "plan"
}

run "plan_only" {
  command = plan
  assert {
    condition     = terraform_data.app.input == "plan"
    error_message = "wrong input"
  }
  assert {
    condition     = length(terraform_data.replica) == 2
    error_message = "wrong count"
  }
}

run "plan_vars" {
  command = plan
  variables {
    replicas = 3
  }
  assert {
    condition     = length(terraform_data.replica) == 3
    error_message = "wrong count"
  }
}
