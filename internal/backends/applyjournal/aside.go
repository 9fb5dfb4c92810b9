package applyjournal

import "time"

// AsideStamp is the time a journal is set aside (moved out of the way by
// a forced Import or a Recover that accepts loss), as it stands in the
// journal's new name.
func AsideStamp() string { return time.Now().UTC().Format("20060102T150405Z") }
