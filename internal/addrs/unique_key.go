package addrs

// UniqueKey is a comparable value that stands for one address, for use as a
// map key. Two addresses of the same kind have equal keys exactly when they
// are equal. Keys of different kinds never collide.
//
// Root-module addresses use the local address value itself as their key,
// which costs no allocation; other addresses use a tagged string.
type UniqueKey interface{}

type stringKey string
