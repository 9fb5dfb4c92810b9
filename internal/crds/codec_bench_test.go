package crds

import "testing"

// BenchmarkCodec decodes and encodes a managed resource of a mid-sized
// awscc type (AWS::SecretsManager::Secret), as the reconciler does on
// every observation.
func BenchmarkCodec(b *testing.B) {
	resp := builtinSchema(b, "AWS::SecretsManager::Secret")
	block := resp.ResourceTypes["awscc_secretsmanager_secret"].Block
	params := map[string]any{
		"name": "app", "description": "d", "kmsKeyId": "k",
		"replicaRegions": []any{map[string]any{"region": "eu-west-1"}},
		"tags":           []any{map[string]any{"key": "team", "value": "a"}},
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := DecodeParameters(block, params, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	v, err := DecodeParameters(block, params, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			EncodeObservation(block, v)
		}
	})
}
