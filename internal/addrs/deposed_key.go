package addrs

import "fmt"

// DeposedKey identifies a deposed object of a resource instance: an old
// object that create_before_destroy moved aside and has yet to delete.
// Terraform writes it as eight hexadecimal digits.
type DeposedKey string

// NotDeposed is the DeposedKey of an instance's current object.
const NotDeposed DeposedKey = ""

// ParseDeposedKey checks s is empty (the current object) or eight
// hexadecimal digits, as Terraform generates them.
func ParseDeposedKey(s string) (DeposedKey, error) {
	if s == "" {
		return NotDeposed, nil
	}
	if len(s) != 8 {
		return NotDeposed, fmt.Errorf("invalid deposed key %q: must be eight hexadecimal digits", s)
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return NotDeposed, fmt.Errorf("invalid deposed key %q: must be eight hexadecimal digits", s)
		}
	}
	return DeposedKey(s), nil
}

// String returns the key, or "" for NotDeposed.
func (k DeposedKey) String() string { return string(k) }
