package propval

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// PathError is a conversion failure at a property path, written for the
// program's author: "rules[0].port: want a number".
type PathError struct {
	Path resource.PropertyPath
	Msg  string
}

func (e *PathError) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return e.Path.String() + ": " + e.Msg
}

func errorf(path resource.PropertyPath, format string, args ...any) error {
	return &PathError{Path: clonePath(path), Msg: fmt.Sprintf(format, args...)}
}

// child returns path with one more step, never sharing the caller's array.
func child(path resource.PropertyPath, step any) resource.PropertyPath {
	out := make(resource.PropertyPath, len(path), len(path)+1)
	copy(out, path)
	return append(out, step)
}

func clonePath(p resource.PropertyPath) resource.PropertyPath {
	return append(resource.PropertyPath(nil), p...)
}
