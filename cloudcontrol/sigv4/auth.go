package sigv4

import "strings"

// Algorithm is the only signing algorithm SigV4 servers accept.
const Algorithm = "AWS4-HMAC-SHA256"

// Auth is the parsed Authorization header of a SigV4 request.
type Auth struct {
	AccessKey, Date, Region, Service string
	SignedHeaders                    []string
	Signature                        string
}

// ParseAuthorization reads an Authorization header; ok is false when it
// is not a complete SigV4 header (a credential scope of five parts ending
// in aws4_request, signed headers and a signature).
func ParseAuthorization(h string) (a Auth, ok bool) {
	rest, ok := strings.CutPrefix(h, Algorithm+" ")
	if !ok {
		return a, false
	}
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "Credential":
			scope := strings.Split(v, "/")
			if len(scope) != 5 || scope[4] != "aws4_request" {
				return a, false
			}
			a.AccessKey, a.Date, a.Region, a.Service = scope[0], scope[1], scope[2], scope[3]
		case "SignedHeaders":
			a.SignedHeaders = strings.Split(v, ";")
		case "Signature":
			a.Signature = v
		}
	}
	return a, a.AccessKey != "" && a.Signature != "" && len(a.SignedHeaders) > 0
}
