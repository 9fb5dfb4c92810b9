package configs

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkLoad10000 loads a module of 10,000 resource blocks, each with
// the usual meta-arguments, spread over 10 files.
func BenchmarkLoad10000(b *testing.B) { benchmarkLoad(b, 10, 1000) }

// BenchmarkLoad1000 is BenchmarkLoad10000 with a tenth of the blocks:
// comparing the two shows that loading time grows linearly.
func BenchmarkLoad1000(b *testing.B) { benchmarkLoad(b, 10, 100) }

func benchmarkLoad(b *testing.B, nFiles, perFile int) {
	files := generateConfig(nFiles, perFile)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, ds := LoadFiles(".", files)
		if ds.HasErrors() || len(m.ManagedResources) != nFiles*perFile {
			b.Fatalf("bad load: %d resources, %s", len(m.ManagedResources), ds.Error())
		}
	}
}

// generateConfig returns nFiles files with perFile resources each. Every
// resource after the first depends on its predecessor and uses an aliased
// provider, so provider resolution and depends_on are exercised.
func generateConfig(nFiles, perFile int) map[string][]byte {
	files := make(map[string][]byte, nFiles+1)
	files["providers.tf"] = []byte(`
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
  }
}
provider "aws" {
  alias  = "west"
  region = "us-west-2"
}
`)
	n := 0
	for f := 0; f < nFiles; f++ {
		var sb strings.Builder
		for i := 0; i < perFile; i++ {
			fmt.Fprintf(&sb, `resource "aws_instance" "r%d" {
  count    = 2
  provider = aws.west
  ami      = "ami-%d"
  tags     = { Name = "r%d" }
`, n, n, n)
			if n > 0 {
				fmt.Fprintf(&sb, "  depends_on = [aws_instance.r%d]\n", n-1)
			}
			sb.WriteString(`  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags["Name"]]
  }
}
`)
			n++
		}
		files[fmt.Sprintf("r%02d.tf", f)] = []byte(sb.String())
	}
	return files
}
