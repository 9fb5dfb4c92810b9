// Package testkube starts a real Kubernetes API server for tests: etcd and
// kube-apiserver as child processes on loopback, each cluster with its own
// ports, temporary directories, serving certificate, service-account keys
// and bearer token. The reconciler's integration tests use it so that CRD
// validation, the status subresource, resourceVersion conflicts and
// deletion behave as in a cluster, which a fake client does not promise.
//
// The binaries come from scripts/install-kube-apiserver.sh (run by make
// test); when they are missing, Start skips the test and names the script.
//
// It is test support: only _test.go files and other test-support packages
// import it. It knows nothing of Cairn's engine or reconciler.
//
// Imports:
//
//	tests only
//	deny internal/... # test support knows nothing of Cairn's engine or reconciler
//	uses environment # where make test put the binaries (CAIRN_KUBE_APISERVER, CAIRN_ETCD, the install script's cache)
package testkube
