// Package valjson decodes cty values from the JSON form cty's own json
// package writes (the form of state attributes), fast.
//
// Reading a 10,000-instance state spent most of a no-op plan inside
// cty/json's token-by-token decoder. This decoder scans the bytes once
// with no intermediate tokens. It handles the well-formed inputs state
// files hold; for anything else (a syntax error, a type mismatch that cty
// would convert or reject) it defers to cty/json, so results and error
// messages are always exactly cty's. A differential fuzz test holds it to
// that.
//
// Boundary: a codec of cty's JSON form; state semantics are package
// states'.
//
// Imports:
//
//	deny internal/... # a codec of cty's JSON form: state semantics are states'
package valjson
