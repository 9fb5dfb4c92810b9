//go:build !linux

package main

// totalMemory returns 0: the soft memory limit is only set where the
// machine's memory is cheap to learn.
func totalMemory() uint64 { return 0 }
