// Package cloudcontroltest holds test cases shared by the packages that
// implement or use the cloudcontrol contract, so that they are all held
// to the same table: today the RFC 6901 pointer cases that
// cloudcontrol.ParsePointer and every user of it (the endpoint, the
// emulator, cfnschema) are tested against.
//
// Boundary: imported by tests only; depends on nothing but the standard
// library.
//
// Imports:
//
//	tests only
//	deny ... # shared cases depend on nothing but the standard library
//	allow std
package cloudcontroltest
