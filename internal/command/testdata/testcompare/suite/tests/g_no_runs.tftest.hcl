# A file without runs passes.
variables {
  name = "none"
}
