// Package evalsuite ships the scenario suite of `dreamd eval` inside the binary, so the command
// works from any directory. The runner is internal/eval; eval/README.md describes the format.
package evalsuite

import "embed"

// FS holds suite/: one directory per scenario, each with its scenario.yaml, transcripts and
// maybe a starting store.
//
//go:embed suite
var FS embed.FS
