package command

import (
	"os"
	"path/filepath"
)

// cfnSchemasDir returns the absolute path of the shared CloudFormation
// schema corpus (../../../shared/cfn-schemas from this package, or
// CAIRN_CFN_SCHEMAS), or "" when it is absent; tests that need it skip.
func cfnSchemasDir() string {
	dir := os.Getenv("CAIRN_CFN_SCHEMAS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "cfn-schemas")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return ""
	}
	return abs
}
