package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/webui"
)

type uiOptions struct {
	*globalOptions
	Listen string // loopback host:port; "": ui.listen, else a free port of 127.0.0.1
	// ready, when set (tests), is given the URL once the server listens.
	ready func(url string)
}

func newUICmd(g *globalOptions, runF func(*uiOptions) error) *cobra.Command {
	o := &uiOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Serve a local web view of every store: memories, provenance, runs, pending plans",
		Long: `Serve a web page on the loopback interface showing every store dreamd knows with its scope; each
memory with its front matter, body, provenance (sessions, dates learnt, confirmed, re-taught, last
used, stale citations) and the runs that wrote it; the timeline of runs with their diffs; plots of
the memories per store over time and of the tokens each run sent; the pending plans, whose
operations you accept, reject or edit one by one before applying them (as
` + "`dreamd apply --only … --edit …`" + ` does) or reject all at once (as ` + "`dreamd apply --skip`" + ` of every
name does), after what dreamd dropped itself; and rollback of a run (as ` + "`dreamd rollback`" + ` does;
over files changed by hand since the run only when you tick "roll back anyway", as --force).

The URL printed carries a fresh random token: only who has it can read the page (it moves to a
cookie at the first visit). Only loopback addresses are served (127.0.0.1, ::1, localhost).
Everything shown is redacted as recall shows it. --store shows that store only. The daemon serves
the same page (of every store) when ui.listen is set. Stop with Ctrl-C.`,
		Example: `  dreamd ui
  dreamd ui --listen 127.0.0.1:8377`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runUI(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Listen, "listen", "", "loopback `host:port` to serve on (default ui.listen, else a free port of 127.0.0.1)")
	return cmd
}

func runUI(ctx context.Context, o *uiOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	addr := cmp.Or(o.Listen, cfg.UI.Listen, "127.0.0.1:0")
	if err := config.LoopbackAddr(addr); err != nil {
		return usagef("--listen " + err.Error())
	}
	log := o.logger(cfg)
	recoverStores(o.globalOptions, cfg)
	d, err := o.uiDriver(cfg, log)
	if err != nil {
		return err
	}
	ln, srv, err := startUI(o.globalOptions, cfg, d, addr, only)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Out, "dreamd ui: every store at %s\n(only who has this URL can read it; Ctrl-C stops)\n", srv.URL())
	if o.ready != nil {
		o.ready(srv.URL())
	}
	return srv.Serve(ctx, ln)
}

// uiDriver is the driver the web view's writes go through, as the command line's do.
func (g *globalOptions) uiDriver(cfg *config.Config, log *slog.Logger) (*driver, error) {
	env, err := g.env(cfg, log, false)
	if err != nil {
		return nil, err
	}
	return &driver{cfg: cfg, env: env, log: log}, nil
}

// startUI listens on the loopback address addr and makes the web view over cfg's stores, writing
// through d: an apply is `dreamd apply --only`'s, a rollback `dreamd rollback`'s.
func startUI(g *globalOptions, cfg *config.Config, d *driver, addr, only string) (net.Listener, *webui.Server, error) {
	red, err := redactor(cfg)
	if err != nil {
		return nil, nil, err
	}
	ln, err := webui.Listen(addr)
	if err != nil {
		return nil, nil, usagef("--listen: " + err.Error())
	}
	home, _ := os.UserHomeDir()
	env := routingEnv(cfg)
	opt := webui.Options{
		StateDir: cfg.StateDir,
		Only:     only,
		Redactor: red,
		ScopeOf:  env.ScopeOf,
		Home:     home,
		Now:      time.Now,
		Log:      d.log,
		Apply: func(ctx context.Context, file string, sel phases.Selection) (*phases.Plan, error) {
			p, err := phases.ReadPlan(file, cfg.StateDir)
			if err != nil {
				return nil, err
			}
			return d.applyPart(ctx, p, sel, false, false)
		},
		Rollback: func(ctx context.Context, paths store.Paths, run string, force bool) (string, error) {
			rows, err := storeRuns(paths.Store, cfg.StateDir)
			if err != nil {
				return "", err
			}
			target, err := g.pickRun(cfg.StateDir, paths.Store, rows, run)
			if err != nil {
				return "", err
			}
			done, err := d.rollback(ctx, target, force)
			return done.ID, err
		},
	}
	srv, err := webui.New(opt, ln.Addr().(*net.TCPAddr))
	if err != nil {
		ln.Close()
		return nil, nil, err
	}
	return ln, srv, nil
}

// serveDaemonUI serves the web view beside the daemon when ui.listen is set, writing its URL (with
// the token) to <state_dir>/ui.url, readable by the user only: the log may be read by others
// (journald), so it names the file, not the token.
func serveDaemonUI(ctx context.Context, g *globalOptions, cfg *config.Config, d *driver) {
	if cfg.UI.Listen == "" {
		return
	}
	ln, srv, err := startUI(g, cfg, d, cfg.UI.Listen, "")
	if err != nil {
		d.log.Error("web view not served", "listen", cfg.UI.Listen, "err", err)
		return
	}
	file := filepath.Join(cfg.StateDir, "ui.url")
	_ = os.Remove(file) // a file left by an earlier daemon keeps its mode: made anew, readable by the user only
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		d.log.Warn("cannot record the web view's URL", "file", file, "err", err)
	} else if err := os.WriteFile(file, []byte(srv.URL()+"\n"), 0o600); err != nil {
		d.log.Warn("cannot record the web view's URL", "file", file, "err", err)
	}
	d.log.Info("web view served", "at", "http://"+ln.Addr().String()+"/", "url_in", file)
	go func() {
		if err := srv.Serve(ctx, ln); err != nil {
			d.log.Error("web view stopped", "err", err)
		}
	}()
}
