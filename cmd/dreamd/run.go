package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/daemon"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/tokens"
)

type runOptions struct {
	*globalOptions
	Once   bool
	DryRun bool
	Gated  bool
	Force  bool
	Diff   bool
	Brief  bool // one line per store that did something (the timer's unit)
}

func newRunCmd(g *globalOptions, runF func(*runOptions) error) *cobra.Command {
	o := &runOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the daemon, or one pass with --once",
		Long: `Without --once, run the daemon: check the gates on the configured schedule and consolidate every
store whose gates are open, until SIGTERM or SIGINT (SIGHUP reloads the config).

With --once, make one pass over every store with new material now (gates ignored unless --gated),
apply it (or leave it pending with apply: review) and print the report: what was consolidated,
with counts, and where the diff is (dreamd history show RUN --diff; --diff prints it here). With
--dry-run, write nothing at all and print the report with the diff of every file that would change.

A first pass over months of history reads each store's transcripts oldest first and stops once
what it read fills the token budget; the rest waits, its cursors unmoved, for the next passes (the
report says how many files are left). --max-sessions N (gather.max_sessions_per_pass) caps the
sessions a store's pass reads, to keep each pass short.`,
		Example: `  dreamd run --once --dry-run      # review what a pass would do
  dreamd run --once                # do it
  dreamd run --once --project ~/src/shop --format json
  dreamd run                       # the daemon, on the configured schedule`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !o.Once && (o.DryRun || o.Gated || o.Force || o.Diff || o.Brief) {
				return usagef("--dry-run, --gated, --force, --diff and --brief go with --once")
			}
			if runF != nil {
				return runF(o)
			}
			if o.Once {
				return runOnce(cmd.Context(), o)
			}
			return runDaemon(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.Once, "once", false, "one pass now, then exit")
	f.BoolVar(&o.DryRun, "dry-run", false, "with --once: write nothing, print the report and diff")
	f.BoolVar(&o.Gated, "gated", false, "with --once: apply the daemon's gates (for timer-driven setups)")
	f.BoolVar(&o.Force, "force", false, "with --once: apply even a pass that retires more than limits.max_retire_fraction")
	f.Int("max-sessions", 0, "read at most `N` transcript files (sessions) per store this pass, oldest first; the rest next pass (gather.max_sessions_per_pass)")
	f.BoolVar(&o.Diff, "diff", false, "with --once: print the diff of what was applied too (a dry run always prints it)")
	f.BoolVar(&o.Brief, "brief", false, "with --once: one line per store that did something, nothing for the rest (what the timer logs)")
	projectFlag(cmd, g)
	return cmd
}

func runOnce(ctx context.Context, o *runOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	var progress *progressLine
	logTo := o.Err
	if f, ok := o.Err.(*os.File); ok && isTerminal(f) {
		progress = newProgressLine(f)
		defer progress.finish()
		logTo = progress // log lines go above the progress line
	}
	log := loggerTo(logTo, cfg)
	env, err := o.env(cfg, log, o.DryRun)
	if err != nil {
		return err
	}
	if progress != nil {
		env.Progress = progress.update
	}
	opt := phases.Options{DryRun: o.DryRun, Review: cfg.Apply == config.ApplyReview, Force: o.Force, Store: only}
	if o.Gated {
		opt.Gates = gatesOf(cfg)
	}
	if !o.DryRun {
		keepAll(env.Sources, log) // the timer's hourly run keeps what Gemini CLI has not deleted yet
	}
	d := &driver{cfg: cfg, env: env, log: log}
	outcomes, runErr := d.pass(ctx, opt)
	if !o.DryRun {
		forgetRead(cfg.StateDir, env.Sources, log)
	}
	if progress != nil {
		progress.finish()
	}
	write := report.Write
	if o.Brief && o.Format == "text" {
		write = func(w io.Writer, _ string, outcomes []phases.Outcome, opt report.Options) error {
			return report.Brief(w, outcomes, opt)
		}
	}
	if err := write(o.Out, o.Format, outcomes, report.Options{AppliedDiff: o.Diff, Redactor: env.Redactor, Hint: o.hint}); err != nil {
		return err
	}
	return runErr // the report told it on stdout; main tells it on stderr, once, for scripts
}

// failedStores sums up a daemon pass whose stores logged their own failures.
func failedStores(outcomes []phases.Outcome, err error) error {
	if err == nil {
		return nil
	}
	n, busy := 0, 0
	for _, o := range outcomes {
		if o.Err != nil {
			n++
		}
		if o.Result == phases.Busy {
			busy++
		}
	}
	if n == 0 {
		return err // not a store's failure: logged by the daemon, once
	}
	if n == busy && errors.Is(err, store.ErrBusy) { // not interrupted either
		return nil // another run holds those stores: their outcome lines say so; the next check tries again
	}
	return fmt.Errorf("%d of %d %s failed (each logged above, and in dreamd status)", n, len(outcomes), plural(len(outcomes), "store", "stores"))
}

// gatesOf is the configured gates.
func gatesOf(cfg *config.Config) *phases.Gates {
	return &phases.Gates{MinHours: cfg.Gates.MinHours, MinSessions: cfg.Gates.MinSessions, IdleMinutes: cfg.Gates.IdleMinutes}
}

// runDaemon runs passes on the schedule until ctx ends; SIGHUP reloads the configuration, and a
// bad new configuration is logged while the old one stays in force.
func runDaemon(ctx context.Context, o *runOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	log := o.logger(cfg)
	// A reload reads --store and --project again: the store a project's sessions go to may move
	// with the configuration.
	type running struct {
		*driver
		only string // the store --store or --project selects; "": every store
	}
	build := func(cfg *config.Config, only string) (*running, error) {
		env, err := o.env(cfg, log, false)
		if err != nil {
			return nil, err
		}
		return &running{driver: &driver{cfg: cfg, env: env, log: log}, only: only}, nil
	}
	first, err := build(cfg, only)
	if err != nil {
		return err
	}
	var cur atomic.Pointer[running]
	cur.Store(first)

	pass := func(ctx context.Context) error {
		d := cur.Load()
		keepAll(d.env.Sources, log)
		outcomes, err := d.pass(ctx, phases.Options{Review: d.cfg.Apply == config.ApplyReview, Store: d.only, Gates: gatesOf(d.cfg)})
		forgetRead(d.cfg.StateDir, d.env.Sources, log)
		logOutcomes(log, outcomes)
		// The daemon sleeps for hours between passes: the token vocabulary need not be held
		// through them (the heap it frees goes back to the OS after the check).
		tokens.Release()
		return failedStores(outcomes, err)
	}
	d, err := daemon.New(daemon.Options{
		Schedule:  cfg.Schedule,
		Pass:      pass,
		StatePath: filepath.Join(cfg.StateDir, "daemon.json"),
		Logger:    log,
		// Gemini CLI deletes sessions at its next start: each is kept the moment it appears.
		Watch:   keptRoots(first.env.Sources),
		Changed: func(path string) { keepChanged(cur.Load().env.Sources, path, log) },
	})
	if err != nil {
		return &config.Error{Key: "schedule", Msg: strings.TrimPrefix(err.Error(), "schedule: ")}
	}

	// The web view writes through the driver as it was at the start: a reload that changes
	// ui.listen takes a restart (the port and its token are what the user was given).
	serveDaemonUI(ctx, o.globalOptions, cfg, first.driver)

	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				next, nextOnly, err := o.loadStore()
				if err == nil {
					var s *running
					if s, err = build(next, nextOnly); err == nil {
						if err = d.Reload(next.Schedule); err == nil {
							cur.Store(s)
						}
					}
				}
				if err != nil {
					log.Error("config reload failed; keeping the running config", "err", err)
					continue
				}
				log.Info("config reloaded", "schedule", next.Schedule)
			}
		}
	}()
	return d.Run(ctx)
}

func logOutcomes(log *slog.Logger, outcomes []phases.Outcome) {
	for _, out := range outcomes {
		attrs := []any{"store", out.Store, "result", out.Result}
		if out.Detail != "" {
			attrs = append(attrs, "detail", out.Detail)
		}
		if g := out.Gate; g != nil {
			attrs = append(attrs, "gate", g.Gate)
			if !g.Until.IsZero() {
				attrs = append(attrs, "opens", g.Until.Round(time.Second))
			}
		}
		if p := out.Plan; p != nil {
			attrs = append(attrs, "sessions", p.Counts.Sessions, "created", p.Counts.Created, "updated", p.Counts.Updated, "retired", p.Counts.Retired)
		}
		switch {
		case out.Result == phases.Busy: // another run has the store now; the next check tries again
			log.Info("pass", attrs...)
		case out.Err != nil:
			log.Error("pass", attrs...)
		case out.Result == phases.Gated: // new sessions wait: say which gate holds them and until when
			log.Info("pass", attrs...)
		case out.Plan == nil: // nothing new: every quiet tick says so, only worth a debug line
			log.Debug("pass", attrs...)
		default:
			log.Info("pass", attrs...)
		}
	}
}

func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef(fmt.Sprintf("unexpected argument %q", args[0]))
	}
	return nil
}
