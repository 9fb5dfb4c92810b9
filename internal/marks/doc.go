// Package marks holds fast helpers for cty value marks. The engine removes
// marks before every provider call and checks for them in hot paths;
// cty's own deep unmarking rebuilds the whole value even when nothing is
// marked, which dominated planning time at 10,000 instances. These helpers
// look first and rebuild only when a mark is present.
//
// It also knows the sensitive mark's secrets (secrets.go): the strings a
// copy of a sensitive value would show, so that copies a provider made
// without the mark can be recognised and hidden; and a run's secrets
// (known.go), the set every text shown to people is checked against, since
// such a copy travels into objects that hold no mark at all.
//
// Boundary: a leaf under configschema and everything above it: it
// imports nothing of Cairn's and knows no schemas, state or rendering.
//
// Imports:
//
//	deny internal/... # a leaf: configschema and the engine's hot paths import it
package marks
