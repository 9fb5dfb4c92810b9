// Package propval converts between cty values of a schema's implied type
// and Pulumi property values (resource.PropertyMap), in both directions, for
// the Pulumi resource-provider adapter.
//
// Conversion is directed by the cty type: object attributes (snake_case)
// become camelCase property keys, map keys and values of dynamic type stay
// verbatim. Unknowns map to computed values, the sensitive mark to secrets,
// resource references to their ID (or URN). Assets and archives, numbers
// that float64 cannot hold exactly, and marks other than sensitive are
// refused with an error naming the property path.
//
// DecodeConfig reads provider configuration as the engine sends it:
// settings that are not strings arrive as JSON in a string and are
// decoded by the schema's type, as the bridged providers do.
//
// It must not import the engine, providers or gRPC: it converts values and
// knows nothing of requests (propwire, which it uses for Pulumi's signed
// objects inside JSON, is a codec of values too).
//
// Imports:
//
//	deny internal/providers/... internal/lifecycle google.golang.org/grpc/... # it converts values and knows nothing of requests
package propval
