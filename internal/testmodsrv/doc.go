// Package testmodsrv serves module packages on loopback for tests, over
// HTTPS with a CA made for the test, speaking the real protocols that
// Terraform, OpenTofu and Cairn fetch modules with: git's smart HTTP
// protocol (the git binary's own git-http-backend behind net/http/cgi),
// HTTP archives (.tar.gz, .zip, ?archive=), X-Terraform-Get indirection,
// a redirect loop, the module registry protocol (service discovery,
// versions, download), an S3-compatible bucket and a GCS storage
// emulator (object reads of /bucket/NAME), and Mercurial through
// "hg serve". Clients trust the CA through SSL_CERT_FILE (Go
// programs), GIT_SSL_CAINFO (git) and AWS_CA_BUNDLE (the AWS SDK), which
// Env returns with STORAGE_EMULATOR_HOST.
//
// Imports:
//
//	tests only
//	uses environment # git runs with the test process's environment (PATH), less the user's configuration
//	deny internal/... # test support knows nothing of Cairn
package testmodsrv
