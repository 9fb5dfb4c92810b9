package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
)

// laterFunctions returns the functions Terraform (1.6 to 1.15) and
// OpenTofu (1.6 to 1.12) added to the language after Terraform 1.5,
// except templatestring, which Table adds beside templatefile, and
// convert (convert.go). docs/functions.md gives each one's version.
func laterFunctions() map[string]function.Function {
	return map[string]function.Function{
		"base64gunzip":    makeBase64GunzipFunc(),
		"cidrcontains":    makeCidrContainsFunc(),
		"convert":         makeConvertFunc(),
		"ephemeralasnull": makeEphemeralAsNullFunc(),
		"issensitive":     makeIsSensitiveFunc(),
		"urldecode":       makeURLDecodeFunc(),
	}
}

// makeIsSensitiveFunc builds issensitive(value) (Terraform 1.8, OpenTofu
// 1.7): whether value itself is marked sensitive. Of an unknown value it
// is unknown, as in OpenTofu: the marks an unknown value will have once
// known are not settled yet (a conditional may pick a sensitive branch).
func makeIsSensitiveFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name: "value", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowNull: true, AllowMarked: true, AllowDynamicType: true,
		}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if !args[0].IsKnown() {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.BoolVal(args[0].HasMark(configschema.SensitiveMark)), nil
		},
	})
}

// makeEphemeralAsNullFunc builds ephemeralasnull(value) (Terraform 1.10,
// OpenTofu 1.11): value with every part marked ephemeral replaced by a
// null of its type, so an ephemeral value can feed a plan or state by
// dropping what must not be kept. Other marks stay; an unknown part
// stays unknown (whether it will be ephemeral is not settled yet).
func makeEphemeralAsNullFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{
			Name: "value", Type: cty.DynamicPseudoType,
			AllowUnknown: true, AllowNull: true, AllowMarked: true, AllowDynamicType: true,
		}},
		Type: func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.TransformWithTransformer(args[0], ephemeralNuller{})
		},
	})
}

// ephemeralNuller replaces ephemeral values by nulls on the way down, so
// a wholly ephemeral collection becomes one null rather than a
// collection of nulls.
type ephemeralNuller struct{}

func (ephemeralNuller) Enter(_ cty.Path, v cty.Value) (cty.Value, error) {
	if !v.HasMark(marks.Ephemeral) {
		return v, nil
	}
	_, ms := v.Unmark()
	delete(ms, marks.Ephemeral)
	return cty.NullVal(v.Type()).WithMarks(ms), nil
}

func (ephemeralNuller) Exit(_ cty.Path, v cty.Value) (cty.Value, error) { return v, nil }

// makeURLDecodeFunc builds urldecode(str) (OpenTofu 1.7): str with
// query-string escapes (%XX and +) decoded, the inverse of urlencode.
// Its error repeats OpenTofu's, which quotes the empty result of the
// failed decoding rather than the input.
func makeURLDecodeFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s, err := url.QueryUnescape(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode URL '%s': %v", s, err)
			}
			return cty.StringVal(s), nil
		},
	})
}

// makeBase64GunzipFunc builds base64gunzip(str) (OpenTofu 1.7), the
// inverse of base64gzip: str Base64-decoded, then gunzipped.
func makeBase64GunzipFunc() function.Function {
	return function.New(&function.Spec{
		Params:       []function.Parameter{{Name: "str", Type: cty.String}},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s := args[0].AsString()
			raw, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to decode base64 data %q", s)
			}
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to gunzip bytestream: %w", err)
			}
			out, err := io.ReadAll(io.LimitReader(zr, maxGunzipBytes+1))
			if err != nil {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: %w", err)
			}
			if len(out) > maxGunzipBytes {
				return cty.UnknownVal(cty.String), fmt.Errorf("failed to read gunzip raw data: the data is larger than %d MiB", maxGunzipBytes>>20)
			}
			return cty.StringVal(string(out)), nil
		},
	})
}

// maxGunzipBytes bounds what base64gunzip inflates: a few kilobytes of
// gzip can expand to gigabytes, and a plan should fail rather than run
// out of memory.
const maxGunzipBytes = 256 << 20
