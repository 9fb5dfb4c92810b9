// Package typeconv converts values between types exactly as go-cty's convert
// package does, but in time linear in the number of elements where convert
// is quadratic: a tuple to a list or set (of any single type, or of a given
// one), and an object to a map.
//
// convert finds the common element type of such a collection by unifying
// the type of every element, and unifying n types compares each with every
// other; converting a tuple to a list unifies the converted elements again.
// A for expression over 20,000 items, passed to toset, tolist, distinct or
// any function whose parameter is a list, set or map (sort, join), took
// tens of seconds. This package unifies each distinct element type once,
// so the cost is the elements plus the square of the distinct types (one,
// usually), and gives the results, marks and error messages convert gives.
//
// Every other conversion is convert's own. The package knows nothing of
// the Terraform language; it depends on go-cty alone.
//
// Imports:
//
//	deny internal/... # it depends on go-cty alone
package typeconv
