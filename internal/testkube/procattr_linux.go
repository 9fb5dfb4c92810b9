package testkube

import "syscall"

// procAttr asks Linux to kill the child when the thread that started it
// dies, so a test binary that crashes or is killed leaves no etcd or
// apiserver running. Cleanup still stops them in the normal case.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
