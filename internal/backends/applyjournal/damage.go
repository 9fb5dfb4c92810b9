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
	// Part names one stored part in the message ("row" for pg, whose
	// users know the journal as rows); empty, the message speaks of
	// records and stored parts.
	Part string
}

func (e *DamageError) Error() string {
	at, parts := "record", "stored parts"
	if e.Part != "" {
		at, parts = e.Part, e.Part+"s"
	}
	return fmt.Sprintf("the apply journal %s is damaged at %s %d: %s; the %d records before it can be recovered, "+
		"but %d %s cannot be used, and they may record objects that exist", e.Where, at, e.Seq, e.Reason, e.Kept, e.Unusable, parts)
}
