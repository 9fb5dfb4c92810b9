package plugincache

import (
	"debug/elf"
	"fmt"
	"os"
	"strings"
)

// BuildID identifies the running executable's code: its Go build ID,
// which the Go linker derives from every package linked, so any change
// to Cairn's translation gives a new one while a rebuild of the same
// sources keeps it. Where the executable has no readable build ID (not
// ELF), its path, size and modification time stand in: a rebuild
// rewrites the file. "" when even that cannot be read (the caller's keys
// then match only other such processes, which is still correct for one
// executable).
func BuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if id, ok := goBuildID(exe); ok {
		return "go:" + id
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("file:%s:%d:%d", exe, st.Size(), st.ModTime().UnixNano())
}

// goBuildID reads the ELF note the Go linker writes (.note.go.buildid:
// owner "Go", type 4), which sits in the file's first page.
func goBuildID(exe string) (string, bool) {
	f, err := elf.Open(exe)
	if err != nil {
		return "", false
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", false
	}
	note, err := s.Data()
	if err != nil || len(note) < 16 {
		return "", false
	}
	order := f.ByteOrder
	nameSize, descSize, typ := order.Uint32(note[0:]), order.Uint32(note[4:]), order.Uint32(note[8:])
	nameEnd := 12 + int(nameSize)
	descStart := 12 + int((nameSize+3)&^3)
	if typ != 4 || nameEnd > len(note) || strings.TrimRight(string(note[12:nameEnd]), "\x00") != "Go" || descStart+int(descSize) > len(note) {
		return "", false
	}
	return string(note[descStart : descStart+int(descSize)]), true
}
