# The two commands the README promises: `make quickstart` and `make test`.
# Both work on a fresh machine with Go installed; `make test` installs what
# the tests need (Terraform 1.5.7, the reference implementation the
# compatibility tests compare against) and skips installs already done.

GO ?= go
GOBIN := $(shell $(GO) env GOPATH)/bin

.PHONY: quickstart test test-short bench build

build:
	$(GO) build -o bin/cairn ./cmd/cairn

quickstart: build
	./scripts/quickstart.sh

test:
	./scripts/test.sh

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./internal/enginetest/ ./internal/states/... ./cfnschema/
