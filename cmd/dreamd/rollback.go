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
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg) // an apply killed half-way is finished first, so it can be rolled back
	rows, err := storeRuns(only, cfg.StateDir)
	if err != nil {
		return err
	}
	target, err := o.pickRun(cfg.StateDir, only, rows, run)
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
	return o.print(rollbackResult{Run: done.ID, RolledBack: target.RunID, Store: target.Store, Files: append([]string{}, done.Files...), Undo: o.hint("rollback", done.ID)})
}

type rollbackResult struct {
	Run        string   `json:"run"`         // the rollback's own run id: roll it back to undo it
	RolledBack string   `json:"rolled_back"` // the run undone
	Store      string   `json:"store"`
	Files      []string `json:"files"` // store files restored
	Undo       string   `json:"-"`     // the command that undoes the rollback
}

func (r rollbackResult) render(w io.Writer, _ bool) error {
	_, err := fmt.Fprintf(w, "rolled back %s in %s: %d files restored; its transcripts will be consolidated again by the next pass (undo with `%s`)\n",
		r.RolledBack, r.Store, len(r.Files), r.Undo)
	return err
}

// plural picks the word for n things: one or many (as extract, phases and preamble do).
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
