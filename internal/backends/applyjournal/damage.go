package applyjournal

import "fmt"

// DamageError reports a journal that cannot be read to its end: a part
// other than the last is missing or unusable (edited by hand, or sealed
// with a key no longer configured), so records after it, which may have
// been acknowledged, would be lost by replaying only what comes before.
// Nothing is changed when it is returned; Recover with acceptLoss keeps
// the records before the damage and moves the journal aside.
type DamageError struct {
	// Where names the journal; Seq is the first unusable record (0: the
	// header).
	Where  string
	Seq    uint64
	Reason string
	// Kept counts the readable records before the damage, Unusable the
	// stored parts (objects, rows) from it on.
	Kept, Unusable int
}

func (e *DamageError) Error() string {
	return fmt.Sprintf("the apply journal %s is damaged at record %d: %s; the %d records before it can be recovered, "+
		"but %d stored parts cannot be used, and they may record objects that exist", e.Where, e.Seq, e.Reason, e.Kept, e.Unusable)
}
