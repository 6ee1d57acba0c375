package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/store"
)

type gcOptions struct {
	*globalOptions
}

func newGCCmd(g *globalOptions, runF func(*gcOptions) error) *cobra.Command {
	o := &gcOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Prune run history to history.keep_runs / keep_days, and the archive to archive.keep_days",
		Long: `Remove the journals and pre-images of runs that history.keep no longer holds: each store keeps
its newest history.keep_runs runs and every run younger than history.keep_days, whichever keeps
more. Every apply does this too; gc does it now, for every store (or --store). A run still kept
can always be rolled back.

The archive of retired memories is kept forever by default. With archive.keep_days set, a run's
archived memories go once the run is that many days old and its journal is pruned.`,
		Example: "  dreamd gc\n  dreamd gc --format json",
		Args:    noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runGC(o)
		},
	}
	projectFlag(cmd, g)
	return cmd
}

type gcRow struct {
	Store      string   `json:"store"`
	Runs       []string `json:"runs_pruned"`
	Archives   []string `json:"archives_pruned"` // runs whose archived memories were removed
	Freed      int64    `json:"bytes_freed"`
	StateBytes int64    `json:"state_bytes"`
}

func runGC(o *gcOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg)
	known, err := phases.KnownStores(cfg.StateDir)
	if err != nil {
		return err
	}
	rows := []gcRow{}
	for _, p := range known {
		if only != "" && p.Store != only {
			continue
		}
		lock, err := store.Acquire(p)
		if err != nil {
			return err
		}
		pr, err := store.PruneHistory(p, keepOf(cfg), time.Now())
		releaseLock(o.logger(cfg), lock)
		if err != nil {
			return fmt.Errorf("%s: %w", p.Store, err)
		}
		rows = append(rows, gcRow{Store: p.Store, Runs: append([]string{}, pr.Runs...), Archives: append([]string{}, pr.Archives...), Freed: pr.Bytes, StateBytes: store.StateSize(p)})
	}
	return o.print(gcResult{Stores: rows})
}

type gcResult struct {
	Stores []gcRow `json:"stores"`
}

func (r gcResult) render(w io.Writer, markdown bool) error {
	if len(r.Stores) == 0 {
		_, err := fmt.Fprintln(w, "No stores yet.")
		return err
	}
	t := table{header: []string{"STORE", "RUNS PRUNED", "ARCHIVES PRUNED", "FREED", "STATE"}}
	for _, s := range r.Stores {
		t.rows = append(t.rows, []string{s.Store, strconv.Itoa(len(s.Runs)), strconv.Itoa(len(s.Archives)), report.ByteSize(s.Freed), report.ByteSize(s.StateBytes)})
	}
	return t.render(w, markdown)
}
