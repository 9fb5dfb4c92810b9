run "bad_var" {
  command = plan
  variables {
    name = "far-too-long-a-name"
  }
  expect_failures = [var.name]
}

run "bad_output" {
  command = plan
  variables {
    name = "forbidden"
  }
  expect_failures = [output.app]
}

run "bad_check" {
  command = plan
  variables {
    replicas = 7
  }
  expect_failures = [check.health]
}

run "bad_resource" {
  variables {
    name = "broken"
  }
  expect_failures = [terraform_data.app]
}
