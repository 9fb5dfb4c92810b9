package plugincache

import (
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Prune removes all but the keep most recently written entries whose
// names match pattern (filepath.Match syntax), and the temporary files of
// writes that died more than an hour ago. Every new schema set or build
// makes new entries (11 MB for the Terraform plugin's answer, 22 MB for
// Pulumi's schema), so without pruning a developer's rebuilds would fill
// the cache. An entry another process is reading stays readable (it is
// unlinked, not truncated); one pruned before it is read is a miss. The
// errors are ignored: pruning is best effort.
func (c Cache) Prune(pattern string, keep int) {
	if c.dir == "" {
		return
	}
	c.removeStaleTemps()
	names, err := filepath.Glob(filepath.Join(c.dir, pattern))
	if err != nil || len(names) <= keep {
		return
	}
	type entry struct {
		path string
		mod  time.Time
	}
	var entries []entry
	for _, n := range names {
		if st, err := os.Stat(n); err == nil && st.Mode().IsRegular() {
			entries = append(entries, entry{n, st.ModTime()})
		}
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.After(entries[j].mod) })
	for _, e := range entries[min(keep, len(entries)):] {
		_ = os.Remove(e.path)
	}
}

// removeStaleTemps removes temporary files of writes that never finished
// (the process was killed between create and rename).
func (c Cache) removeStaleTemps() {
	temps, _ := filepath.Glob(filepath.Join(c.dir, "*.tmp"))
	for _, t := range temps {
		if st, err := os.Stat(t); err == nil && time.Since(st.ModTime()) > time.Hour {
			_ = os.Remove(t)
		}
	}
}
