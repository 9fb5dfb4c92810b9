package command

import (
	"io"
	"testing"
)

// TestNoColorFlag: every command's -no-color turns colour off; an explicit
// -no-color=false leaves it on, and a value that is not a boolean is an
// error, as for any boolean flag.
func TestNoColorFlag(t *testing.T) {
	cases := map[string]struct {
		args      []string
		wantColor bool
		wantErr   bool
	}{
		"Absent":   {args: nil, wantColor: true},
		"Set":      {args: []string{"-no-color"}, wantColor: false},
		"True":     {args: []string{"-no-color=true"}, wantColor: false},
		"False":    {args: []string{"-no-color=false"}, wantColor: true},
		"NotABool": {args: []string{"-no-color=maybe"}, wantColor: true, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := &Meta{Streams: Streams{Stderr: io.Discard}}
			m.Color = true
			fs := newFlagSet("test", io.Discard)
			noColorFlag(fs, m)
			err := fs.Parse(tc.args)
			if (err != nil) != tc.wantErr || m.Color != tc.wantColor {
				t.Errorf("Parse(%q): error %v, Color %v; want error %v, Color %v", tc.args, err, m.Color, tc.wantErr, tc.wantColor)
			}
		})
	}
}
