package getproviders

import "io"

// Progress hears how much of a package download has arrived: done bytes
// of total (-1 when the server did not say). It is called from the
// downloading goroutine, first with done 0, and again from 0 when a
// transient failure restarts the download; it must be cheap and safe to
// call concurrently with the caller's other work.
type Progress func(done, total int64)

// progressWriter reports every write of a download to a Progress.
type progressWriter struct {
	w      io.Writer
	done   int64
	total  int64
	report Progress
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.done += int64(n)
	p.report(p.done, p.total)
	return n, err
}
