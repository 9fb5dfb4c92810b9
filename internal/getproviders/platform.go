package getproviders

import (
	"fmt"
	"runtime"
	"strings"
)

// Platform is an operating system and CPU architecture pair, written
// OS_ARCH ("linux_amd64") in package paths and archive names.
type Platform struct {
	OS, Arch string
}

// CurrentPlatform is the platform this binary runs on, the only one whose
// packages an installer will pick.
func CurrentPlatform() Platform {
	return Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}
}

// String returns OS_ARCH.
func (p Platform) String() string { return p.OS + "_" + p.Arch }

// ParsePlatform parses OS_ARCH; the error is for the user.
func ParsePlatform(s string) (Platform, error) {
	os, arch, ok := strings.Cut(s, "_")
	if !ok || os == "" || arch == "" || strings.Contains(arch, "_") {
		return Platform{}, fmt.Errorf("invalid platform %q: must be OS_ARCH, like linux_amd64", s)
	}
	return Platform{OS: os, Arch: arch}, nil
}
