package main

import (
	"os"

	"github.com/cairn-iac/cairn/internal/command"
)

func main() {
	os.Exit(command.Run(append([]string{"provider", "serve", "awscc"}, os.Args[1:]...), command.Streams{}))
}
