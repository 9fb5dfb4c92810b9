terraform {
  required_version = ">= 1.5.0"
  backend "local" {
    path = "terraform.tfstate"
  }
}

provider "aws" {
  region = var.region
}

resource "aws_instance" "web" {
  count    = var.instances
  ami      = data.aws_ami.ubuntu.id
  provider = aws

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags]
  }
}

data "aws_ami" "ubuntu" {
  most_recent = true
}

resource "terraform_data" "marker" {
  input      = aws_instance.web[0].id
  depends_on = [aws_instance.web]
}
