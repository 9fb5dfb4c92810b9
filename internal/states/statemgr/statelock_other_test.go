//go:build !linux

package statemgr

import (
	"fmt"
	"os"
)

// childTerraformLock is only needed where Cairn takes Terraform's lock.
func childTerraformLock(string) int {
	fmt.Fprintln(os.Stderr, "Terraform's state file lock is only taken on Linux")
	return 1
}
