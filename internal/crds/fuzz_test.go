package crds

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeParameters decodes arbitrary JSON objects as spec.forProvider
// and status.atProvider of testBlock. The property: never a panic; either
// an error or a value of the block's implied type, which encodes again.
func FuzzDecodeParameters(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"name":"n","size":1.5,"ports":[1,2],"zones":["a","a"],"tags":{"k":"v"}}`,
		`{"document":{"a":[1,"x",{"b":null}]},"rules":[{"port":1,"protocol":"tcp"}]}`,
		`{"passwordSecretRef":{"name":"s","key":"pw"},"keysSecretRef":{"name":"s","key":"k"}}`,
		`{"filter":[{"values":["x"]},{"values":null}],"labels":{"a":{"value":"b"}}}`,
		`{"rules":[{"port":"x"}],"arn":"y"}`,
		`{"ports":[1,null],"tags":{"a":null},"originConf":{"hostName":"h","port":1e400}}`,
	} {
		f.Add([]byte(seed))
	}
	b := testBlock()
	ty := b.ImpliedType()
	resolve := secrets(map[SecretKeySelector]string{{Name: "s", Key: "pw"}: "p", {Name: "s", Key: "k"}: `["a"]`})
	f.Fuzz(func(t *testing.T, data []byte) {
		var params map[string]any
		if json.Unmarshal(data, &params) != nil {
			return
		}
		if v, err := DecodeParameters(b, params, resolve); err == nil {
			if errs := v.Type().TestConformance(ty); errs != nil {
				t.Fatalf("value of type %#v does not conform: %v", v.Type(), errs)
			}
			EncodeParameters(b, v)
			EncodeObservation(b, v)
		}
		if v, err := DecodeObservation(b, params); err == nil {
			if errs := v.Type().TestConformance(ty); errs != nil {
				t.Fatalf("value of type %#v does not conform: %v", v.Type(), errs)
			}
		}
	})
}
