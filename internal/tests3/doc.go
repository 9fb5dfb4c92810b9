// Package tests3 starts a real S3-compatible server for tests: versitygw
// v1.8.0 (its posix backend) as a child process on a loopback port, with a
// root directory in the test's temporary directory, root credentials made
// up for the test and one bucket created before Start returns. The s3
// backend's tests and the command layer's interop scripts (Terraform and
// OpenTofu sharing the bucket with Cairn) use it.
//
// versitygw and not MinIO: versitygw's posix backend honours S3's
// conditional writes (If-None-Match: * and If-Match on PutObject), which
// use_lockfile's .tflock object relies on, and it installs from the Go
// module proxy with a plain `go install`.
//
// The binary comes from scripts/install-versitygw.sh (run by make test),
// which exports its path as CAIRN_VERSITYGW; when that is unset or the
// file is missing, Start skips the test and names the script.
//
// It is test support: only _test.go files and other test-support packages
// import it. It knows nothing of Cairn.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn
//	uses environment # where make test put the binary (CAIRN_VERSITYGW)
package tests3
