package render

// Lists are shown as the edit that turns the old list into the new one:
// elements common to both (a longest common subsequence) are kept, the rest
// are deleted or added. Terraform's choice among equally long subsequences
// shows in its output, so the tie-breaking here follows it: walking back
// from the end past a pair that differs, drop the last before element only
// when that keeps a strictly longer subsequence, else the last after one.

// commonSubsequence returns the longest common subsequence of xs and ys (as
// elements of xs). It takes O(len(xs)*len(ys)) time and space.
func commonSubsequence[T any](xs, ys []T, eq func(x, y T) bool) []T {
	if len(xs) == 0 || len(ys) == 0 {
		return nil
	}
	w := len(xs)
	length := make([]int, len(xs)*len(ys))
	same := make([]bool, len(xs)*len(ys))
	at := func(x, y int) int {
		if x < 0 || y < 0 {
			return 0
		}
		return length[y*w+x]
	}
	for y := range ys {
		for x := range xs {
			if eq(xs[x], ys[y]) {
				same[y*w+x] = true
				length[y*w+x] = at(x-1, y-1) + 1
				continue
			}
			length[y*w+x] = max(at(x-1, y), at(x, y-1))
		}
	}
	out := make([]T, length[len(length)-1])
	i := len(out) - 1
	for x, y := len(xs)-1, len(ys)-1; x >= 0 && y >= 0; {
		switch {
		case same[y*w+x]:
			out[i] = xs[x]
			i--
			x--
			y--
		case at(x-1, y) > at(x, y-1):
			x--
		default:
			y--
		}
	}
	return out
}

// walkEdit calls step for every element of the edit from before to after,
// in order: step(b, len(after)) deletes before[b], step(len(before), a)
// adds after[a], and step(b, a) pairs two elements (equal ones, or two
// objects shown as one changed object, which reads better than a delete
// and an add when an object in a list is edited in place).
func walkEdit[T any](before, after []T, eq func(x, y T) bool, isObject func(T) bool, step func(b, a int)) {
	common := commonSubsequence(before, after, eq)
	b, a, c := 0, 0, 0
	nextIs := func(v T) bool { return c < len(common) && eq(v, common[c]) }
	for b < len(before) || a < len(after) || c < len(common) {
		for b < len(before) && !nextIs(before[b]) {
			if isObject(before[b]) && a < len(after) && isObject(after[a]) && !nextIs(after[a]) {
				step(b, a)
				b++
				a++
				continue
			}
			step(b, len(after))
			b++
		}
		for a < len(after) && !nextIs(after[a]) {
			step(len(before), a)
			a++
		}
		if c < len(common) {
			step(b, a)
			b++
			a++
			c++
		}
	}
}
