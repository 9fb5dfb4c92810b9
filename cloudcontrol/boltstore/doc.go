// Package boltstore keeps Cairn's Cloud Control endpoint state in one bbolt
// file: resource models for handlers (it implements cloudcontrol.Store)
// and the endpoint's request records (it implements server.RequestStore),
// so that an acknowledged operation survives a restart or a kill -9.
//
// Every write is one bbolt transaction, fsynced before the call returns.
// Records are opaque bytes here: the package knows keys and order, never
// what a model or a request record means.
//
// Boundary: imports bbolt and package cloudcontrol only; nothing of the
// endpoint's transport, and nothing under internal/.
//
// Imports:
//
//	allow go.etcd.io/...
//	deny cloudcontrol/emulator net/... # records are opaque bytes: nothing of the wire protocol or of what a model means
package boltstore
