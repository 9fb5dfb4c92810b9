# a is renamed and changed; k is renamed only; c loses count (an implied
# move of c[0]); e changes from for_each to count; z moves to an address
# nothing declares.
resource "terraform_data" "b" {
  input = "b"
}

moved {
  from = terraform_data.a
  to   = terraform_data.b
}

resource "terraform_data" "m" {
  input = "k"
}

moved {
  from = terraform_data.k
  to   = terraform_data.m
}

resource "terraform_data" "c" {
  input = "c0"
}

resource "terraform_data" "e" {
  count = 2
  input = count.index == 0 ? "p" : "q"
}

moved {
  from = terraform_data.e["p"]
  to   = terraform_data.e[0]
}

moved {
  from = terraform_data.e["q"]
  to   = terraform_data.e[1]
}

moved {
  from = terraform_data.z
  to   = terraform_data.zz
}
