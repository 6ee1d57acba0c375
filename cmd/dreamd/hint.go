package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// hint is a dreamd command line to print as advice, as the user can run it from where they are:
// the program as it was started (`go run ./cmd/dreamd` from a clone) and the --config they gave, so
// the quick start's "undo with …" works as printed.
func (g *globalOptions) hint(args ...string) string {
	parts := []string{program()}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	if g.ConfigFile != "" {
		parts = append(parts, "--config", shellQuote(g.ConfigFile))
	}
	return strings.Join(parts, " ")
}

// program is how a hint starts dreamd: `dreamd`, or `go run ./cmd/dreamd` when this process was
// started by go run in the module's root (its binary lives in a go-build directory that is gone
// once it exits, and a clone need not have dreamd on PATH).
func program() string {
	exe, err := os.Executable()
	if err != nil || !strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "dreamd"
	}
	if _, err := os.Stat(filepath.Join("cmd", "dreamd", "main.go")); err != nil {
		return "dreamd"
	}
	return "go run ./cmd/dreamd"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,~", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// noRunError says why no kept run has the id a user gave, without guessing: a run older than the
// oldest one kept was pruned; with no runs at all, the runs may be under another --config's
// state directory; else the id is not one dreamd made (a typo, or another store's with --store).
func (g *globalOptions) noRunError(id, stateDir, only string, rows []historyRow) error {
	oldest := ""
	for _, r := range rows {
		if oldest == "" || strings.TrimPrefix(r.RunID, "rollback-") < oldest {
			oldest = strings.TrimPrefix(r.RunID, "rollback-")
		}
	}
	stamp := strings.TrimPrefix(id, "rollback-")
	switch {
	case len(rows) == 0 && only != "":
		return usagef(fmt.Sprintf("no run %q: %s has no applied runs (`%s` lists every store's)", id, only, g.hint("history")))
	case len(rows) == 0:
		return usagef(fmt.Sprintf("no run %q: there are no applied runs in %s; if the run was made with another config, give it with --config", id, stateDir))
	case runStamp.MatchString(stamp) && runStamp.MatchString(oldest) && stamp[:len("20060102T150405Z")] <= oldest[:len("20060102T150405Z")]:
		// Compared by the second they were made: two runs of one second sort by their random
		// suffix, so a run pruned in favour of one made in the same second may sort after it.
		return usagef(fmt.Sprintf("no run %q: it is older than the oldest run kept (%s); runs beyond history.keep_runs / keep_days are pruned, their archived memories stay in the archive (see archive.keep_days)", id, oldest))
	}
	return usagef(fmt.Sprintf("no run %q among the %d kept (`%s` lists them)", id, len(rows), g.hint("history", "--limit", "0")))
}

// runStamp is how a run id starts: the UTC time it was made.
var runStamp = regexp.MustCompile(`^\d{8}T\d{6}Z-`)
