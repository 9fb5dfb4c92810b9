package graphsvg

import (
	"math"
	"slices"
)

const (
	// alignPasses is how many times each column is moved toward its
	// neighbours: enough for long edges to straighten, cheap (linear).
	alignPasses = 8
	// virtualWeight is how much more a virtual node resists being moved
	// off its neighbours' line than a box: a long edge stays straight
	// and the boxes move instead.
	virtualWeight = 4
)

// place sets coordinates: columns left to right, each as wide as its
// widest box; within a column, y in the column's order, then the edges'
// curves.
func (l *layered) place() *placed {
	left, right := l.columns()
	y := l.ys()
	top, bottom := math.Inf(1), math.Inf(-1)
	for v := range l.rank {
		h := l.height(v) / 2
		top, bottom = min(top, y[v]-h), max(bottom, y[v]+h)
	}
	if len(l.rank) == 0 {
		top, bottom = 0, 0
	}
	shift := margin - top
	for v := range y {
		y[v] += shift
	}
	width := float64(margin)
	if n := len(right); n > 0 {
		width = right[n-1]
	}
	p := &placed{
		width:  math.Ceil(width + margin),
		height: math.Ceil(bottom - top + 2*margin),
		nodes:  make([]box, l.real),
		edges:  make([][]point, len(l.chains)),
	}
	for v := range p.nodes {
		r := l.rank[v]
		p.nodes[v] = box{x: (left[r] + right[r]) / 2, y: y[v], w: l.width[v], h: nodeHeight}
	}
	for i := range l.chains {
		p.edges[i] = l.route(i, p.nodes, left, right, y)
	}
	return p
}

// columns returns each column's left and right x: as wide as its widest
// box, rankGap apart.
func (l *layered) columns() (left, right []float64) {
	left, right = make([]float64, len(l.layers)), make([]float64, len(l.layers))
	x := float64(margin)
	for r, layer := range l.layers {
		w := 0.0
		for _, v := range layer {
			w = max(w, l.width[v])
		}
		left[r], right[r] = x, x+w
		x += w + rankGap
	}
	return left, right
}

// height is a node's height: a box's, or none for an edge passing.
func (l *layered) height(v int) float64 {
	if v < l.real {
		return nodeHeight
	}
	return 0
}

// gap is the least distance between the centres of a and b, neighbours
// in a column.
func (l *layered) gap(a, b int) float64 {
	g := float64(nodeGap)
	if a >= l.real || b >= l.real {
		g = laneGap
	}
	return (l.height(a)+l.height(b))/2 + g
}

// ys stacks each column centred on 0, then moves each column, sweeping
// right then left, toward the mean y of its nodes' neighbours while
// keeping the order and the gaps (see fit).
func (l *layered) ys() []float64 {
	y := make([]float64, len(l.rank))
	for _, layer := range l.layers {
		at := 0.0
		for i, v := range layer {
			if i > 0 {
				at += l.gap(layer[i-1], v)
			}
			y[v] = at
		}
		for _, v := range layer {
			y[v] -= at / 2
		}
	}
	for pass := range alignPasses {
		for i := range l.layers {
			r := i
			if pass%2 == 1 {
				r = len(l.layers) - 1 - i
			}
			l.fit(l.layers[r], y)
		}
	}
	return y
}

// fit moves the nodes of one column to the y positions nearest (least
// squares, weighted) to the mean y of each node's neighbours, keeping
// their order and gaps: with offsets o (the gaps summed), the positions
// y-o must not decrease, an isotonic regression solved exactly by
// pooling adjacent violators. A node without neighbours wants to stay.
func (l *layered) fit(layer []int, y []float64) {
	type block struct{ w, wz float64 }
	blocks := make([]block, 0, len(layer))
	sizes := make([]int, 0, len(layer))
	off := 0.0
	for i, v := range layer {
		if i > 0 {
			off += l.gap(layer[i-1], v)
		}
		want, w := y[v], 0.01
		if n := len(l.pred[v]) + len(l.succ[v]); n > 0 {
			sum := 0.0
			for _, u := range l.pred[v] {
				sum += y[u]
			}
			for _, u := range l.succ[v] {
				sum += y[u]
			}
			want, w = sum/float64(n), float64(n)
		}
		if v >= l.real {
			w *= virtualWeight
		}
		blocks, sizes = append(blocks, block{w, w * (want - off)}), append(sizes, 1)
		for k := len(blocks) - 1; k > 0 && blocks[k-1].wz/blocks[k-1].w > blocks[k].wz/blocks[k].w; k-- {
			blocks[k-1] = block{blocks[k-1].w + blocks[k].w, blocks[k-1].wz + blocks[k].wz}
			sizes[k-1] += sizes[k]
			blocks, sizes = blocks[:k], sizes[:k]
		}
	}
	i, off := 0, 0.0
	for k, b := range blocks {
		for range sizes[k] {
			if i > 0 {
				off += l.gap(layer[i-1], layer[i])
			}
			y[layer[i]] = b.wz/b.w + off
			i++
		}
	}
}

// route draws edge i through its chain, left to right: from the right
// middle of the left box, straight across each column it passes (and
// across the rest of a box's column), curving from column to column,
// into the left middle of the right box. The arrowhead sits at the node
// that waits: the right box, or the left one for a reversed edge, whose
// points are then given from right to left.
func (l *layered) route(i int, boxes []box, left, right, y []float64) []point {
	chain := l.chains[i]
	a, b := boxes[chain[0]], boxes[chain[len(chain)-1]]
	startGap, endGap := 0.0, float64(arrowLen)
	if l.reversed[i] {
		startGap, endGap = arrowLen, 0
	}
	at := point{a.x + a.w/2 + startGap, a.y}
	pts := []point{at}
	to := func(q point, curve bool) {
		if curve {
			mid := (at.x + q.x) / 2
			pts = append(pts, point{mid, at.y}, point{mid, q.y}, q)
		} else {
			pts = append(pts, point{at.x + (q.x-at.x)/3, at.y}, point{at.x + 2*(q.x-at.x)/3, q.y}, q)
		}
		at = q
	}
	if r := right[l.rank[chain[0]]]; at.x < r {
		to(point{r, at.y}, false)
	}
	for _, v := range chain[1 : len(chain)-1] {
		to(point{left[l.rank[v]], y[v]}, true)
		to(point{right[l.rank[v]], y[v]}, false)
	}
	end := point{b.x - b.w/2 - endGap, b.y}
	if c := left[l.rank[chain[len(chain)-1]]]; end.x > c {
		to(point{c, end.y}, true)
		to(end, false)
	} else {
		to(end, true)
	}
	if l.reversed[i] {
		slices.Reverse(pts)
		return append(pts, point{a.x + a.w/2, a.y})
	}
	return append(pts, point{b.x - b.w/2, b.y})
}
