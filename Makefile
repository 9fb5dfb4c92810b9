# The two commands the README promises: `make quickstart` and `make test`.
# Both work on a fresh machine with Go installed; `make test` installs what
# the tests need (Terraform 1.5.7, the reference implementation the
# compatibility tests compare against) and skips installs already done.

GO ?= go
GOBIN := $(shell $(GO) env GOPATH)/bin

.PHONY: quickstart test test-short bench build fuzz

build:
	$(GO) build -o bin/cairn ./cmd/cairn

quickstart: build
	./scripts/quickstart.sh

test:
	./scripts/test.sh

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run '^$$' -bench . -benchtime 3x ./internal/enginetest/ ./internal/states/... ./cfnschema/ \
		./cloudcontrol/... ./internal/cfnregistry/ ./internal/providers/awscc/
	$(GO) test -run '^$$' -bench ApplyThroughEndpoint -benchtime 2x ./internal/command/

# Runs every fuzz target in the repository, one after another, for
# FUZZTIME each (at least 60s by default). Large-input targets need the
# short -fuzzminimizetime, or minimising a new input looks like a hang.
# Findings are written to testdata/fuzz/FuzzX/ in the target's package;
# commit them as regression seeds.
FUZZTIME ?= 60s
fuzz:
	./scripts/fuzz.sh $(FUZZTIME)
