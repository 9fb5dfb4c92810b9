package marks

// Ephemeral marks a value that must never reach a plan or state: one
// derived from an ephemeral input variable, local or output (Terraform
// 1.10, OpenTofu 1.11). ephemeralasnull replaces such values by null.
const Ephemeral = "ephemeral"
