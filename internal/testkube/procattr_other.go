//go:build !linux

package testkube

import "syscall"

// procAttr has nothing to add outside Linux: there the children outlive a
// crashed test binary.
func procAttr() *syscall.SysProcAttr {
	return nil
}
