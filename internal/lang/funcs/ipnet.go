package funcs

import (
	"errors"
	"net"
	"strings"

	"github.com/hashicorp/go-cty-funcs/cidr"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// ipNetworkFunctions returns Terraform's IP network functions, all from
// go-cty-funcs' cidr package (built on apparentlymart/go-cidr), each given
// the prefix as Terraform 1.5 reads it (see legacyIPv4Prefix). cidrnetmask
// also refuses IPv6 prefixes, as Terraform's does.
func ipNetworkFunctions() map[string]function.Function {
	return map[string]function.Function{
		"cidrhost":    withLegacyIPv4Prefix(cidr.HostFunc, nil),
		"cidrnetmask": withLegacyIPv4Prefix(cidr.NetmaskFunc, requireIPv4),
		"cidrsubnet":  withLegacyIPv4Prefix(cidr.SubnetFunc, nil),
		"cidrsubnets": withLegacyIPv4Prefix(cidr.SubnetsFunc, nil),
	}
}

// withLegacyIPv4Prefix returns lib, a function whose first argument is a
// CIDR prefix, with that argument rewritten by legacyIPv4Prefix and then,
// if check is not nil, checked by it before lib runs.
func withLegacyIPv4Prefix(lib function.Function, check func(prefix string) error) function.Function {
	return function.New(&function.Spec{
		Description: lib.Description(),
		Params:      lib.Params(),
		VarParam:    lib.VarParam(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return lib.ReturnTypeForValues(args)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			prefix := legacyIPv4Prefix(args[0].AsString())
			if check != nil {
				if err := check(prefix); err != nil {
					return cty.NilVal, function.NewArgError(0, err)
				}
			}
			libArgs := make([]cty.Value, len(args))
			copy(libArgs, args)
			libArgs[0] = cty.StringVal(prefix)
			return lib.Call(libArgs)
		},
	})
}

// legacyIPv4Prefix returns prefix with leading zeros dropped from the octets
// of a dotted-quad IPv4 address, so "010.001.0.0/16" becomes "10.1.0.0/16".
//
// Why: Terraform 1.5 keeps, for compatibility, the address parser of Go
// before 1.17, which read such octets as decimal. Go's net package now
// rejects them (they are ambiguous: other tools read them as octal), so
// without this the library functions would fail on configurations that
// Terraform accepts. Anything that is not a four-octet decimal address is
// returned unchanged for the library to judge.
func legacyIPv4Prefix(prefix string) string {
	addr, bits, hasBits := strings.Cut(prefix, "/")
	octets := strings.Split(addr, ".")
	if len(octets) != 4 {
		return prefix
	}
	for i, o := range octets {
		if o == "" || strings.Trim(o, "0123456789") != "" {
			return prefix
		}
		if trimmed := strings.TrimLeft(o, "0"); trimmed != "" {
			octets[i] = trimmed
		} else {
			octets[i] = "0"
		}
	}
	out := strings.Join(octets, ".")
	if hasBits {
		out += "/" + bits
	}
	return out
}

// requireIPv4 rejects an IPv6 prefix: a netmask in dotted form only means
// something for IPv4. Other parse errors are left to the library.
func requireIPv4(prefix string) error {
	ip, _, err := net.ParseCIDR(prefix)
	if err == nil && ip.To4() == nil {
		return errors.New("IPv6 addresses cannot have a netmask: use the prefix length from the CIDR notation instead")
	}
	return nil
}
