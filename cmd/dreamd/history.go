package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

type historyOptions struct {
	*globalOptions
	Limit int // the newest this many runs; 0 lists every one
}

func newHistoryCmd(g *globalOptions, runF func(*historyOptions) error) *cobra.Command {
	o := &historyOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Applied runs per store, the newest 50 by default: time, counts, summary",
		Example: `  dreamd history
  dreamd history --project ~/src/shop --format markdown
  dreamd history --limit 0 --format json | jq '.runs[-1].meta.usage'`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runHistory(o)
		},
	}
	cmd.Flags().IntVar(&o.Limit, "limit", 50, "list the newest this many runs (0: every run kept)")
	jsonAlias(cmd, g)
	projectFlag(cmd, g)
	cmd.AddCommand(newHistoryShowCmd(o, nil))
	return cmd
}

type historyShowOptions struct {
	*historyOptions
	Run  string
	Diff bool
}

func newHistoryShowCmd(h *historyOptions, runF func(*historyShowOptions) error) *cobra.Command {
	o := &historyShowOptions{historyOptions: h}
	cmd := &cobra.Command{
		Use:   "show RUN",
		Short: "One run: what it did, the files it changed and, with --diff, their diff",
		Example: `  dreamd history show 20261120T100000Z-a1b2c3 --diff
  dreamd history show 20261120T100000Z-a1b2c3 --format json | jq .files`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("history show takes one run id (see `dreamd history`)")
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return completeRuns(h.globalOptions), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			o.Run = args[0]
			if runF != nil {
				return runF(o)
			}
			return runHistoryShow(o)
		},
	}
	cmd.Flags().BoolVar(&o.Diff, "diff", false, "print the diff of the files the run changed")
	projectFlag(cmd, h.globalOptions)
	return cmd
}

func runHistoryShow(o *historyShowOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg)
	rows, err := storeRuns(only, cfg.StateDir)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(rows, func(r historyRow) bool { return r.RunID == o.Run })
	if i < 0 {
		return o.noRunError(o.Run, cfg.StateDir, only, rows)
	}
	res := historyShowResult{historyRow: rows[i]}
	if o.Diff {
		changes, err := store.RunChanges(rows[i].Paths, o.Run)
		if err != nil {
			return err
		}
		red, err := redactor(cfg)
		if err != nil {
			return err
		}
		// The journal keeps the files as they were, for rollback; what is shown is redacted.
		res.Diff = store.Diff(changes, red)
	}
	return o.print(res)
}

type historyShowResult struct {
	historyRow
	Diff string `json:"diff,omitempty"`
}

func (r historyShowResult) render(w io.Writer, markdown bool) error {
	var meta phases.HistoryMeta
	_ = json.Unmarshal(r.Meta, &meta) // a run without readable meta shows zero counts
	c := meta.Counts
	lines := [][2]string{
		{"store", r.Store},
		{"time", r.Time.Local().Format("2006-01-02 15:04:05")},
		{"kind", string(r.Kind)},
		{"state", runState(r.HistoryEntry)},
	}
	if r.Kind == store.RunRollback {
		lines = append(lines, [2]string{"undoes", strings.Join(r.Undoes, ", ")})
	} else {
		lines = append(lines,
			[2]string{"consolidator", meta.Consolidator},
			[2]string{"sessions", strconv.Itoa(meta.Sessions)},
			[2]string{"memories", fmt.Sprintf("%d created, %d updated, %d merged, %d superseded, %d retired", c.Created, c.Updated, c.Merged, c.Superseded, len(r.Retired))},
			[2]string{"tokens", fmt.Sprintf("%d sent (%d cached), %d received, cost %s", meta.Usage.PromptTokens, meta.Usage.CachedTokens, meta.Usage.CompletionTokens, dollars(meta.Cost))},
			[2]string{"summary", meta.Summary})
		if len(meta.Edited) > 0 {
			lines = append(lines, [2]string{"edited", strings.Join(meta.Edited, ", ") + " (a person's text, in review)"})
		}
	}
	lines = append(lines, [2]string{"files", strings.Join(r.Files, ", ")})
	if len(r.Retired) > 0 {
		lines = append(lines, [2]string{"retired", strings.Join(r.Retired, ", ") + " (in the archive)"})
	}
	if err := renderSections(w, markdown, []section{{title: "run " + r.RunID, lines: lines}}); err != nil {
		return err
	}
	if r.Diff == "" {
		return nil
	}
	d := "\n" + r.Diff
	if markdown {
		d = "\n```diff\n" + r.Diff + "```\n"
	}
	_, err := io.WriteString(w, d)
	return err
}

type historyRow struct {
	Store string      `json:"store"`
	Paths store.Paths `json:"-"`
	store.HistoryEntry
}

// storeRuns lists the applied runs of every known store (or only the store only), oldest first.
func storeRuns(only, stateDir string) ([]historyRow, error) {
	known, err := phases.KnownStores(stateDir)
	if err != nil {
		return nil, err
	}
	var rows []historyRow
	for _, p := range known {
		if only != "" && p.Store != only {
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
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg)
	if o.Limit < 0 {
		return usagef("--limit must be 0 (every run) or more")
	}
	rows, err := storeRuns(only, cfg.StateDir)
	if err != nil {
		return err
	}
	res := historyResult{Runs: rows}
	if o.Limit > 0 && len(rows) > o.Limit {
		res.Runs, res.Omitted = rows[len(rows)-o.Limit:], len(rows)-o.Limit
	}
	return o.print(res)
}

type historyResult struct {
	Runs    []historyRow `json:"runs"`    // oldest first
	Omitted int          `json:"omitted"` // older runs left out by --limit
}

func (r historyResult) render(w io.Writer, markdown bool) error {
	if len(r.Runs) == 0 {
		_, err := fmt.Fprintln(w, "No applied runs yet.")
		return err
	}
	// Newest first, as a log reads (JSON keeps its documented order, oldest first).
	t := table{header: []string{"RUN", "TIME", "STORE", "KIND", "SESSIONS", "CREATED", "UPDATED", "RETIRED", "TOKENS", "CACHED", "COST", "STATE", "SUMMARY"},
		gives: []give{keep, keep, elideMiddle, keep, keep, keep, keep, keep, keep, keep, keep, elideEnd, elideEnd},
		drop:  []int{9, 10, 8, 7, 6, 4, 3, 12, 5, 11}}
	for _, r := range backward(r.Runs) {
		var meta phases.HistoryMeta
		_ = json.Unmarshal(r.Meta, &meta) // a run without readable meta shows zero counts
		t.rows = append(t.rows, []string{r.RunID, r.Time.Local().Format("2006-01-02 15:04"), homeRel(r.Store), string(r.Kind),
			strconv.Itoa(meta.Sessions), strconv.Itoa(meta.Counts.Created), strconv.Itoa(meta.Counts.Updated), strconv.Itoa(len(r.Retired)),
			strconv.Itoa(meta.Usage.PromptTokens + meta.Usage.CompletionTokens), strconv.Itoa(meta.Usage.CachedTokens), dollars(meta.Cost),
			runState(r.HistoryEntry), truncate(meta.Summary, 80)})
	}
	if err := t.render(w, markdown); err != nil {
		return err
	}
	if r.Omitted > 0 {
		_, err := fmt.Fprintf(w, "\n%d older %s not listed (`dreamd history --limit 0` lists every run kept).\n", r.Omitted, plural(r.Omitted, "run", "runs"))
		return err
	}
	return nil
}

// dollars is a run's cost, or "-" when the run made no priced call.
func dollars(usd float64) string {
	if usd == 0 {
		return "-"
	}
	return fmt.Sprintf("$%.4f", usd)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// backward is rows newest first.
func backward(rows []historyRow) []historyRow {
	out := slices.Clone(rows)
	slices.Reverse(out)
	return out
}

// homeRel writes a path under the home directory as ~/…, as a user would type it.
func homeRel(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return path
	}
	if rest, ok := strings.CutPrefix(path, home+string(filepath.Separator)); ok {
		return "~" + string(filepath.Separator) + rest
	}
	return path
}

// runState is a run's state as history shows it: applied, or which rollback undid it.
func runState(r store.HistoryEntry) string {
	if r.RolledBack != "" {
		return "rolled back by " + r.RolledBack
	}
	return "applied"
}
