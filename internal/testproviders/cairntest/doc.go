// Package cairntest is a small terraform-plugin-framework provider that
// tests run as a real plugin process (protocol 6 over gRPC) to see how
// Cairn copes with a provider that misbehaves: one resource type whose
// arguments make it crash, hang or plan what the contract forbids. Its
// functions (functions.go) exercise what no public provider here does:
// variadic and dynamic parameters, function errors at an argument, and
// unknown and null arguments. It is
// linked only into test binaries, which serve it under a command name
// (see Serve).
//
// Boundary: it imports nothing of Cairn's, so it misbehaves as any
// provider written on the framework would. The rules of testproviders
// hold for it too: tests only, and the environment (the marker directory
// a test gives the plugin process, MarkerDirEnv).
package cairntest
