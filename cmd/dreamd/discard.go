package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
)

type discardOptions struct {
	*globalOptions
	Plans []string
}

func newDiscardCmd(g *globalOptions, runF func(*discardOptions) error) *cobra.Command {
	o := &discardOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "discard [PLAN...]",
		Short: "Drop pending plans: ones waiting for review, or parked after a safety guard refused them",
		Long: `Drop pending plans without applying them. With no PLAN, every pending plan (of --store, or of
every store) is dropped. The material a dropped plan covered is consolidated again by the next pass.`,
		Example: `  dreamd discard ~/.local/state/dreamd/stores/-home-ana-src-shop/pending/20261120T100000Z-a1b2c3.json
  dreamd discard --project ~/src/shop`,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Plans = args
			if runF != nil {
				return runF(o)
			}
			return runDiscard(o)
		},
	}
	projectFlag(cmd, g)
	return cmd
}

func runDiscard(o *discardOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	pending, err := pendingPlans(only, cfg)
	if err != nil {
		return err
	}
	targets := pending
	if len(o.Plans) > 0 {
		targets = nil
		for _, arg := range o.Plans {
			if i := slices.IndexFunc(pending, func(p string) bool { return filepath.Base(p) == arg+".json" }); i >= 0 {
				arg = pending[i] // a pending plan named by its run id
			}
			abs, err := filepath.Abs(arg)
			if err != nil || !slices.Contains(pending, abs) {
				return usagef(fmt.Sprintf("%s is not a pending plan of a store dreamd knows (see `dreamd status`)", arg))
			}
			targets = append(targets, abs)
		}
	}
	res := discardResult{Discarded: []string{}}
	for _, t := range targets {
		if err := os.Remove(t); err != nil {
			return errors.Join(err, o.print(res))
		}
		res.Discarded = append(res.Discarded, t)
	}
	return o.print(res)
}

type discardResult struct {
	Discarded []string `json:"discarded"` // plan files removed
}

func (r discardResult) render(w io.Writer, _ bool) error {
	if len(r.Discarded) == 0 {
		_, err := fmt.Fprintln(w, "No pending plans.")
		return err
	}
	for _, p := range r.Discarded {
		if _, err := fmt.Fprintf(w, "discarded %s\n", p); err != nil {
			return err
		}
	}
	return nil
}
