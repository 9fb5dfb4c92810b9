resource "terraform_data" "seed" {
  input = "seed"
}

resource "terraform_data" "strings" {
  input = {
    quotes  = "say \"hi\" \\ back"
    dollar  = "$${x} and %%{y}"
    unicode = "é ü 日本 \u00a0 \t tab"
    empty   = ""
    ctrl    = "bell\u0007"
    nullv   = null
  }
}

resource "terraform_data" "numbers" {
  input = [0.1, -5, 1e20, 12345678901234567890, 1.5e-7, 100]
}

resource "terraform_data" "jsons" {
  input = {
    arr     = "[1, 2, 3]"
    ws      = "{\"a\": 1}"
    swap    = "{\"a\": 1}"
    tojson  = "plain"
    bad     = "{not json"
    ml_json = "{\n  \"k\": [\n    1\n  ]\n}\n"
  }
}

resource "terraform_data" "objlist" {
  input = [
    { name = "a", v = 1 },
    { name = "b", v = 2 },
    { name = "c", v = 3 },
    { name = "d", v = 4 },
    { name = "e", v = 5 },
    { name = "f", v = 6 },
  ]
}

resource "terraform_data" "longlist" {
  input = ["a", "b", "c", "d", "e", "f", "g", "h"]
}

resource "terraform_data" "nulls" {
  input = { a = null, b = "x", c = [null, "y"] }
}

resource "terraform_data" "wholesens" {
  input = sensitive({ a = 1 })
}

resource "terraform_data" "heredoc" {
  input = "EOT\nfoo\n  indented\n"
}

resource "terraform_data" "typechange" {
  input = { a = 1, b = [1], c = "s" }
}

resource "terraform_data" "listunknown" {
  input = ["x", "y"]
}

output "only" {
  value = "a"
}
