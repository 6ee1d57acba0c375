// Package suite ships the scenarios of `dreamd eval` inside the binary, so the command works from
// any directory. The runner is internal/eval; eval/README.md describes the format.
package suite

import "embed"

// FS holds one directory per scenario, each with its scenario.yaml, transcripts and maybe a
// starting store (and this file, which the runner passes over: it is no directory). all: keeps
// the files whose names begin with a dot, as Aider's .aider.chat.history.md does.
//
//go:embed all:*
var FS embed.FS
