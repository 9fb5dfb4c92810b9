// Package cairntest is a small terraform-plugin-framework provider that
// tests run as a real plugin process (protocol 6 or 5 over gRPC) to see how
// Cairn copes with a provider that misbehaves: one resource type whose
// arguments make it crash, hang or plan what the contract forbids. Its
// functions (functions.go) exercise what no public provider here does:
// variadic and dynamic parameters, function errors at an argument, and
// unknown and null arguments. The thing has a resource identity (with an
// upgrade from an older identity version) and a list resource
// (identity.go, list.go), for the RPCs of protocol 6.9 and 6.10. It is
// linked only into test binaries, which serve it under a command name,
// over protocol 6 (Serve) or protocol 5 (ServeV5).
//
// Boundary: it imports nothing of Cairn's, so it misbehaves as any
// provider written on the framework would. The rules of testproviders
// hold for it too: tests only, and the environment (the marker directory
// a test gives the plugin process, MarkerDirEnv).
package cairntest
