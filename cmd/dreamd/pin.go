package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
)

type pinOptions struct {
	*globalOptions
	Name  string
	Unpin bool
}

func newPinCmd(g *globalOptions) *cobra.Command {
	o := &pinOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "pin NAME",
		Short: "Pin a memory (pinned: true) so no pass rewrites or retires it; --unpin undoes it",
		Long: `Pin the memory NAME: its front matter gains pinned: true, and no pass rewrites, merges or retires it
again. Pin the lessons the agent is not following (dreamd memories and dreamd doctor name the ones
taught again two or more times). The pin is a run of its own: dreamd history lists it and dreamd
rollback undoes it. Without --store or --project, NAME is looked up in every store dreamd knows.`,
		Example: `  dreamd pin deploy-sh-migrated-to-postgres
  dreamd pin deploy-sh-migrated-to-postgres --unpin --project ~/src/shop`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("pin takes one NAME, the memory to pin: its file name without .md (`dreamd memories` lists them)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Name = args[0]
			return runPin(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Unpin, "unpin", false, "take the pin off")
	projectFlag(cmd, g)
	return cmd
}

func runPin(ctx context.Context, o *pinOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	stores, err := memoryStores(cfg, only)
	if err != nil {
		return err
	}
	var holding []store.Paths
	for _, p := range stores {
		s, err := store.Load(p.Store)
		if err != nil {
			continue
		}
		if slices.ContainsFunc(s.Memories, func(m *store.Memory) bool { return m.Name == o.Name }) {
			holding = append(holding, p)
		}
	}
	switch len(holding) {
	case 0:
		return usagef(fmt.Sprintf("no memory %q in %s (`dreamd memories` lists them)", o.Name, storesWord(stores)))
	case 1:
	default:
		var names []string
		for _, p := range holding {
			names = append(names, p.Store)
		}
		return usagef(fmt.Sprintf("%q is a memory of several stores (%s): say which with --project or --store", o.Name, strings.Join(names, ", ")))
	}
	now := time.Now()
	p, err := phases.Pin(holding[0], o.Name, !o.Unpin, now)
	if errors.Is(err, phases.ErrNoMemory) {
		return usagef(err.Error())
	}
	if err != nil {
		return err
	}
	res := pinResult{Name: o.Name, Store: holding[0].Store, Pinned: !o.Unpin}
	if p != nil {
		res.Run = p.RunID
		log := o.logger(cfg)
		env := routingEnv(cfg)
		env.Now, env.Log = time.Now, log
		(&driver{cfg: cfg, env: env, log: log}).written(ctx, []*phases.Plan{p}, now)
	}
	return o.print(res)
}

// storesWord names the stores searched, for a message.
func storesWord(stores []store.Paths) string {
	if len(stores) == 1 {
		return stores[0].Store
	}
	return fmt.Sprintf("the %d stores dreamd knows", len(stores))
}

type pinResult struct {
	Name   string `json:"name"`
	Store  string `json:"store"`
	Pinned bool   `json:"pinned"`
	Run    string `json:"run,omitempty"` // the run that wrote it ("" when it already was so): `dreamd rollback RUN` undoes it
}

func (r pinResult) render(w io.Writer, _ bool) error {
	state := "pinned"
	if !r.Pinned {
		state = "unpinned"
	}
	if r.Run == "" {
		_, err := fmt.Fprintf(w, "%s in %s was %s already\n", r.Name, r.Store, state)
		return err
	}
	_, err := fmt.Fprintf(w, "%s in %s is %s (run %s; `dreamd rollback %s` undoes it)\n", r.Name, r.Store, state, r.Run, r.Run)
	return err
}
