# Resources in module instances, whose addresses and sort order Terraform
# takes from the text of the module path.

module "m" {
  source = "./child"
  count  = 11
  n      = count.index
}

module "f" {
  source   = "./child"
  for_each = toset(["x", "y"])
  n        = 0
}

resource "terraform_data" "root" {
  input = module.m[0].id
}
