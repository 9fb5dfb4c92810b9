package plugin

import "errors"

// errUnsupported is the answer when the adapter in front of a plugin does
// not offer a capability the engine asked the client for. Every RPC of
// tfprotov6.ProviderServer up to protocol 6.10 is mapped, so this only
// guards a future adapter that drops one.
var errUnsupported = errors.New("the plugin client does not map this RPC")
