run "ok" {
  command = plan
}

run "broken" {
  variables {
    name = "broken"
  }
}

run "skipped" {
  command = plan
}
