#!/usr/bin/env bash
# The test command of the README, and all that CI runs (.ci/run calls exactly this):
#   gofmt, go vet, staticcheck at a pinned version, then every test with the race detector.
# -race needs cgo and a C compiler (CGO_ENABLED=1, gcc or clang on the PATH).
# Arguments go to `go test`: `scripts/test.sh -short` skips the slow tests that kill real
# processes, for local work; CI runs them all.
# staticcheck comes from the Go module proxy the first time (then from the module cache); it is
# pinned here rather than in go.mod, so it adds no dependency to the module.
set -euo pipefail
cd "$(dirname "$0")/.."

staticcheck=honnef.co/go/tools/cmd/staticcheck@v0.8.2

unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt: these files are not formatted:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
go run "$staticcheck" ./...
# The web view's browser tests drive Debian's chromium; they skip without it, except in CI
# (CI=true), where it is installed here (CI runs as root) and its absence fails them.
if [ "${CI:-}" = true ] && ! command -v chromium >/dev/null 2>&1; then
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
fi
go test -race "$@" ./...
