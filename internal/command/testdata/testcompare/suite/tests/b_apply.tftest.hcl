run "create" {
  assert {
    condition     = output.app == "app"
    error_message = "app output is ${output.app}"
  }
  assert {
    condition     = output.child == "app-child"
    error_message = "child output"
  }
}

run "update" {
  variables {
    replicas = 1
  }
  assert {
    condition     = length(output.replicas) == 1
    error_message = "replicas not reduced"
  }
}

run "wrong" {
  assert {
    condition     = output.app == "nope"
    error_message = "app is ${output.app}"
  }
}

run "after_fail" {
  assert {
    condition     = output.app == "app"
    error_message = "run outputs"
  }
}
