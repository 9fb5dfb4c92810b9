variable "names" { default = ["a", "b"] }
module "svc" {
  source   = "./modules/svc"
  for_each = toset(var.names)
  name     = each.key
  size     = length(each.key)
}
module "db" {
  source = "./modules/db"
  count  = 2
  index  = count.index
  secret = "s3cr3t"
}
output "svc_ids" { value = { for k, m in module.svc : k => m.id } }
output "db" { value = module.db[*].label }
output "dbsecret" {
  value     = module.db[0].secret
  sensitive = true
}
