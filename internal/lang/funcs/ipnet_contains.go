package funcs

import (
	"fmt"
	"net"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// makeCidrContainsFunc builds cidrcontains(containing_prefix,
// contained_ip_or_prefix) (OpenTofu 1.7): whether the address, or every
// address of the prefix, lies in containing_prefix. Addresses are read as
// the other IP functions read them (legacyIPv4Prefix), and mixing IPv4
// with IPv6 is an error rather than false, as in OpenTofu, so that a
// mistake is not taken for an answer.
func makeCidrContainsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "containing_prefix", Type: cty.String},
			{Name: "contained_ip_or_prefix", Type: cty.String},
		},
		Type: function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			prefix, addr := args[0].AsString(), args[1].AsString()
			_, containing, err := net.ParseCIDR(legacyIPv4Prefix(prefix))
			if err != nil {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid CIDR address: %s", prefix)
			}
			first := net.ParseIP(legacyIPv4Prefix(addr))
			var last net.IP
			if first == nil {
				_, contained, err := net.ParseCIDR(legacyIPv4Prefix(addr))
				if err != nil {
					return cty.UnknownVal(cty.Bool), fmt.Errorf("invalid IP address or prefix: %s", addr)
				}
				first, last = contained.IP, lastAddress(contained)
			}
			if (first.To4() == nil) != (containing.IP.To4() == nil) {
				return cty.UnknownVal(cty.Bool), fmt.Errorf("address family mismatch: %s vs. %s", prefix, addr)
			}
			in := containing.Contains(first)
			if last != nil {
				in = in && containing.Contains(last)
			}
			return cty.BoolVal(in), nil
		},
	})
}

// lastAddress is the highest address of n: its host bits all set.
func lastAddress(n *net.IPNet) net.IP {
	ip := make(net.IP, len(n.IP))
	for i := range n.IP {
		ip[i] = n.IP[i] | ^n.Mask[i]
	}
	return ip
}
