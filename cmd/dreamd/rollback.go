package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
)

type rollbackOptions struct {
	*globalOptions
	Run   string // the run to roll back; "": the newest
	Force bool
}

func newRollbackCmd(g *globalOptions, runF func(*rollbackOptions) error) *cobra.Command {
	o := &rollbackOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "rollback [RUN]",
		Short: "Restore a store byte for byte as it was before a run (default: the last)",
		Long: `Restore the store a run changed exactly as it was before that run, undoing any later runs of the
same store first, and rewind the transcript cursors so the material is consolidated again by the
next pass. The rollback is itself a run: recorded in the history, and undone by rolling it back
in turn (dreamd rollback ROLLBACK-ID). RUN defaults to the last applied run (of --store when
given). Files edited by hand since the run are not replaced without --force.`,
		Example: `  dreamd rollback --project ~/src/shop
  dreamd rollback 20261120T100000Z-a1b2c3
  dreamd rollback rollback-20261120T101500Z-d4e5f6   # undo a rollback`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("rollback takes at most one run id")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Run = args[0]
			}
			if runF != nil {
				return runF(o)
			}
			return runRollback(cmd.Context(), o)
		},
	}
	cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeRuns(g), cobra.ShellCompDirectiveNoFileComp
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace files edited by hand since the run (the rollback's own journal keeps them)")
	projectFlag(cmd, g)
	return cmd
}

func runRollback(ctx context.Context, o *rollbackOptions) error {
	run := o.Run
	cfg, err := o.load()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg) // an apply killed half-way is finished first, so it can be rolled back
	rows, err := storeRuns(o.globalOptions, cfg.StateDir)
	if err != nil {
		return err
	}
	target, err := pickRun(rows, run)
	if err != nil {
		return err
	}
	log := o.logger(cfg)
	env := routingEnv(cfg)
	env.Now, env.Log = time.Now, log
	d := &driver{cfg: cfg, env: env, log: log}
	done, err := d.rollback(ctx, target, o.Force)
	if err != nil {
		return err
	}
	return o.print(rollbackResult{Run: done.ID, RolledBack: target.RunID, Store: target.Store, Files: append([]string{}, done.Files...)})
}

type rollbackResult struct {
	Run        string   `json:"run"`         // the rollback's own run id: roll it back to undo it
	RolledBack string   `json:"rolled_back"` // the run undone
	Store      string   `json:"store"`
	Files      []string `json:"files"` // store files restored
}

func (r rollbackResult) render(w io.Writer, _ bool) error {
	_, err := fmt.Fprintf(w, "rolled back %s in %s: %d files restored; its transcripts will be consolidated again by the next pass (undo with `dreamd rollback %s`)\n",
		r.RolledBack, r.Store, len(r.Files), r.Run)
	return err
}

// pickRun finds run among the applied runs, or the newest one not rolled back.
func pickRun(rows []historyRow, run string) (historyRow, error) {
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.Kind == "rollback" && r.RunID != run {
			continue // the default is the last apply; a rollback is undone by naming it
		}
		if run == "" && r.RolledBack == "" || r.RunID == run {
			if r.RolledBack != "" {
				return r, usagef(fmt.Sprintf("run %s was already rolled back by %s", r.RunID, r.RolledBack))
			}
			return r, nil
		}
	}
	if run == "" {
		return historyRow{}, usagef("no applied run to roll back (see `dreamd history`)")
	}
	return historyRow{}, usagef(fmt.Sprintf("no applied run %q (see `dreamd history`; the journals of runs older than history.keep_runs / keep_days are pruned; their archived memories stay in the archive, see archive.keep_days)", run))
}

// plural picks the word for n things: one or many (as extract, phases and preamble do).
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
