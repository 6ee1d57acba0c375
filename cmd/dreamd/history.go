package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

type historyOptions struct {
	*globalOptions
	JSON bool
}

func newHistoryCmd(g *globalOptions) *cobra.Command {
	o := &historyOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Applied runs per store: time, counts, summary",
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return runHistory(o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON")
	return cmd
}

type historyRow struct {
	Store string      `json:"store"`
	Paths store.Paths `json:"-"`
	store.HistoryEntry
}

// storeRuns lists the applied runs of every known store (or only --store), oldest first.
func storeRuns(g *globalOptions, stateDir string) ([]historyRow, error) {
	known, err := phases.KnownStores(stateDir)
	if err != nil {
		return nil, err
	}
	var rows []historyRow
	for _, p := range known {
		if g.Store != "" && p.Store != g.Store {
			continue
		}
		entries, err := store.History(p)
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", p.Store, err)
		}
		for _, e := range entries {
			// Lists are [] in JSON, never null.
			e.Files, e.Retired = append([]string{}, e.Files...), append([]string{}, e.Retired...)
			rows = append(rows, historyRow{Store: p.Store, Paths: p, HistoryEntry: e})
		}
	}
	slices.SortStableFunc(rows, func(a, b historyRow) int { return cmp.Compare(a.Time.UnixNano(), b.Time.UnixNano()) })
	return rows, nil
}

func runHistory(o *historyOptions) error {
	cfg, err := o.load()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg)
	rows, err := storeRuns(o.globalOptions, cfg.StateDir)
	if err != nil {
		return err
	}
	if o.wantJSON(o.JSON) {
		return printJSON(o.Out, map[string]any{"runs": rows})
	}
	if len(rows) == 0 {
		fmt.Fprintln(o.Out, "No applied runs yet.")
		return nil
	}
	w := tabwriter.NewWriter(o.Out, 0, 2, 2, ' ', 0)
	fmt.Fprintln(w, "RUN\tTIME\tKIND\tSESSIONS\tCREATED\tUPDATED\tRETIRED\tSTATE\tSUMMARY")
	for _, r := range rows {
		var meta phases.HistoryMeta
		_ = json.Unmarshal(r.Meta, &meta)
		state := "applied"
		if r.RolledBack != "" {
			state = "rolled back by " + r.RolledBack
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\n", r.RunID, r.Time.Local().Format("2006-01-02 15:04"), r.Kind,
			meta.Sessions, meta.Counts.Created, meta.Counts.Updated, len(r.Retired), state, truncate(meta.Summary, 80))
	}
	return w.Flush()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
