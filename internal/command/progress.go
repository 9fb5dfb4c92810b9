package command

import (
	"bufio"
	"fmt"
	"io"
	"sync"
	"time"
)

// flushInterval is how long a progress line may wait in the buffer.
const flushInterval = 50 * time.Millisecond

// progressOut buffers progress lines for the terminal and writes them out
// at most every flushInterval, so an apply of 10,000 instances makes a few
// dozen writes instead of 20,000 and a person watching still sees each line
// at once. A tick function, when given, runs on the same timer (once a
// second), for reports such as "Still creating...". Close writes what is
// left; nothing else may be written to the terminal before it.
type progressOut struct {
	mu    sync.Mutex
	w     *bufio.Writer
	dirty bool
	stop  chan struct{}
	done  chan struct{}
}

func newProgressOut(w io.Writer, tick func(now time.Time)) *progressOut {
	p := &progressOut{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go p.run(tick)
	return p
}

func (p *progressOut) run(tick func(time.Time)) {
	defer close(p.done)
	t := time.NewTicker(flushInterval)
	defer t.Stop()
	n := 0
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			if n++; tick != nil && n%int(time.Second/flushInterval) == 0 {
				tick(now)
			}
			p.flush()
		}
	}
}

// Printf buffers one line. Safe for concurrent use.
func (p *progressOut) Printf(format string, args ...any) {
	p.mu.Lock()
	fmt.Fprintf(p.w, format, args...)
	p.dirty = true
	p.mu.Unlock()
}

func (p *progressOut) flush() {
	p.mu.Lock()
	if p.dirty {
		_ = p.w.Flush()
		p.dirty = false
	}
	p.mu.Unlock()
}

// Close stops the timer and writes out everything buffered.
func (p *progressOut) Close() {
	close(p.stop)
	<-p.done
	p.flush()
}
