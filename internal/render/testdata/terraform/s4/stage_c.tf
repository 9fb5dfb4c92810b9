resource "terraform_data" "seed" {
  input = "seed2"
}

resource "terraform_data" "strings" {
  input = {
    quotes  = "say \"bye\" \\ back"
    dollar  = "$${x} and %%{y}"
    unicode = "é ü 日本 \u00a0 \t tab!"
    empty   = "now"
    ctrl    = "bell\u0007"
    nullv   = "set"
  }
}

resource "terraform_data" "numbers" {
  input = [0.1, -5, 1e20, 12345678901234567890, 1.5e-7, 101]
}

resource "terraform_data" "jsons" {
  input = {
    arr     = "[1, 2, 4]"
    ws      = "{\"a\":1}"
    swap    = "not json"
    tojson  = "{\"b\": true}"
    bad     = "{not json!"
    ml_json = "{\n  \"k\": [\n    2\n  ]\n}\n"
  }
}

resource "terraform_data" "objlist" {
  input = [
    { name = "a", v = 1 },
    { name = "b", v = 20 },
    { name = "c", v = 30 },
    { name = "d", v = 4 },
    { name = "x", v = 5 },
    { name = "f", v = 6 },
  ]
}

resource "terraform_data" "longlist" {
  input = ["a", "b", "c", "D", "e", "f", "g", "H"]
}

resource "terraform_data" "nulls" {
  input = { a = "now", b = null, c = ["z", null] }
}

resource "terraform_data" "wholesens" {
  input = sensitive({ a = 2 })
}

resource "terraform_data" "heredoc" {
  input = "EOT\nfoo\n  indented more\n"
}

resource "terraform_data" "typechange" {
  input = { a = "1", b = { x = 1 }, c = ["s"] }
}

resource "terraform_data" "listunknown" {
  input = ["x", terraform_data.seed.output, { k = terraform_data.seed.output }]
}

resource "terraform_data" "createunknown" {
  input = ["x", terraform_data.seed.output, { k = terraform_data.seed.output, j = 1 }]
}

output "only" {
  value = "c"
}

output "unk" {
  value = terraform_data.seed.output
}

output "sensobj" {
  value     = { a = 1 }
  sensitive = true
}
