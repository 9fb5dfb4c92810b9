package configs

import "github.com/cairn-iac/cairn/internal/hclscan"

// chunkCuts returns up to n-1 byte offsets at which src can be cut into
// pieces of about equal size, each at the start of a top-level item, or nil
// when the scan finds something it does not follow exactly (then the file
// is parsed whole).
func chunkCuts(src []byte, n int) []int {
	starts := hclscan.TopLevelStarts(src)
	if len(starts) < n {
		return nil
	}
	var cuts []int
	j := 0
	for i := 1; i < n; i++ {
		target := len(src) * i / n
		for j < len(starts) && starts[j] < target {
			j++
		}
		if j == len(starts) {
			break
		}
		if starts[j] > 0 && (len(cuts) == 0 || starts[j] > cuts[len(cuts)-1]) {
			cuts = append(cuts, starts[j])
		}
	}
	return cuts
}
