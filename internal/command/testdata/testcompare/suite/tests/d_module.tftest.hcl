run "setup" {
  module {
    source = "./modules/child"
  }
  variables {
    prefix = "setup"
  }
}

run "main" {
  variables {
    name = run.setup.value
  }
  assert {
    condition     = output.app == "setup-child"
    error_message = "got ${output.app}"
  }
}
