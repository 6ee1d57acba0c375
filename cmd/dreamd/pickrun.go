package main

import (
	"fmt"
	"strings"

	"github.com/dreamd/dreamd/internal/store"
)

// pickRun finds the run a rollback undoes: the one named, else the newest apply not rolled back
// yet of the one store that has such a run. With several such stores it refuses and lists them, as
// gh does when a command could mean several repositories: undoing one store's run at random is not
// what anyone asked for.
func (g *globalOptions) pickRun(stateDir, only string, rows []historyRow, run string) (historyRow, error) {
	if run != "" {
		for _, r := range rows {
			if r.RunID != run {
				continue
			}
			if r.RolledBack != "" {
				return r, usagef(fmt.Sprintf("run %s was already rolled back by %s (`%s` undoes that rollback)", r.RunID, r.RolledBack, g.hint("rollback", r.RolledBack)))
			}
			return r, nil
		}
		return historyRow{}, g.noRunError(run, stateDir, only, rows)
	}
	var next []historyRow // per store, the newest apply not rolled back, newest store first
	seen := map[string]bool{}
	var lastRollback *historyRow
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.Kind == store.RunRollback {
			if lastRollback == nil && r.RolledBack == "" {
				lastRollback = &rows[i]
			}
			continue // a rollback is undone by naming it
		}
		if r.RolledBack != "" || seen[r.Store] {
			continue
		}
		seen[r.Store] = true
		next = append(next, r)
	}
	switch {
	case len(next) == 1:
		return next[0], nil
	case len(next) > 1:
		var b strings.Builder
		fmt.Fprintf(&b, "%d stores have a run to roll back; name the run (or the store with --project or --store):", len(next))
		for _, r := range next {
			fmt.Fprintf(&b, "\n  %s   # %s, %s", g.hint("rollback", r.RunID), r.Store, r.Time.Local().Format("2006-01-02 15:04"))
		}
		return historyRow{}, usagef(b.String())
	case lastRollback != nil:
		return historyRow{}, usagef(fmt.Sprintf("nothing left to roll back in %s: every run kept is rolled back; `%s` undoes the last rollback",
			lastRollback.Store, g.hint("rollback", lastRollback.RunID)))
	}
	return historyRow{}, usagef(fmt.Sprintf("no applied run to roll back yet (`%s` lists the runs)", g.hint("history")))
}
