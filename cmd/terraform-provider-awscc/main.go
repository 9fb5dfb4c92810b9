package main

import (
	"os"

	"github.com/cairn-iac/cairn/internal/tfplugins"
)

func main() {
	os.Exit(tfplugins.Main(os.Args[1:], os.Getenv, os.Stderr))
}
