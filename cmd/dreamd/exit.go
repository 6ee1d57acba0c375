package main

import (
	"errors"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/daemon"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

// Exit codes (docs/DESIGN.md): every error maps to one here and nowhere else.
const (
	exitOK      = 0 // done, or nothing to do
	exitFailed  = 1 // the run failed and nothing was applied
	exitUsage   = 2 // bad usage or config
	exitBusy    = 3 // another run holds the store's lock (or another daemon the state directory)
	exitRefused = 4 // refused by a safety guard (stale or replayed plan, retire limit)
)

// exitCodesHelp is the exit codes as --help and every man page state them.
const exitCodesHelp = `Exit codes:
  0  done, or nothing to do
  1  the run failed and nothing was applied (or a doctor check failed)
  2  bad usage or config: the message names the flag or key
  3  another run holds the store's lock, or another daemon serves the state directory
  4  refused by a safety guard: a stale, edited or already applied plan, a pass retiring more
     than limits.max_retire_fraction without --force, a rollback over hand edits without --force`

// usageError is a command-line mistake: a bad flag or argument.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(msg string) error { return &usageError{msg: msg} }

func exitCode(err error) int {
	var ue *usageError
	var ce *config.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue), errors.As(err, &ce), isCobraUsage(err):
		return exitUsage
	case errors.Is(err, store.ErrBusy), errors.Is(err, daemon.ErrAlreadyRunning):
		return exitBusy
	case errors.Is(err, phases.ErrRefused), errors.Is(err, store.ErrStale), errors.Is(err, store.ErrReplayed), errors.Is(err, phases.ErrTampered):
		return exitRefused
	}
	return exitFailed
}
