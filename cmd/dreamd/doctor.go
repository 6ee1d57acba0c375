package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/service"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

type doctorOptions struct {
	*globalOptions
	Timeout time.Duration
}

func newDoctorCmd(g *globalOptions, runF func(*doctorOptions) error) *cobra.Command {
	o := &doctorOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the config, sources, stores, model endpoint and service; say how to fix what fails",
		Long: `Check everything a pass depends on: the configuration and where it came from, each transcript
source and how many sessions it holds, each store (its lock, files with control bytes,
credentials typed into memories), the model endpoint (one tiny structured call, in the request
shape that works with it) and the service. Each failed check comes with its fix; the exit code is
1 when one fails.`,
		Example: "  dreamd doctor\n  dreamd doctor --format json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runDoctor(cmd.Context(), o)
		},
	}
	cmd.Flags().DurationVar(&o.Timeout, "timeout", 60*time.Second, "how long the endpoint probe may take")
	return cmd
}

// check is one finding of doctor.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok, warn, fail
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// errChecksFailed ends a doctor run with exit 1 after its report.
var errChecksFailed = errors.New("doctor: some checks failed")

func runDoctor(ctx context.Context, o *doctorOptions) error {
	var checks []check
	add := func(c check) { checks = append(checks, c) }
	cfg, err := o.load()
	switch {
	case err != nil:
		add(configFailure(err))
	case cfg.File == "":
		add(check{Name: "config", Status: "ok", Detail: "no config file: defaults, environment and flags"})
	default:
		add(check{Name: "config", Status: "ok", Detail: "read " + cfg.File})
	}
	if cfg != nil {
		checks = append(checks, sourceChecks(o.globalOptions, cfg)...)
		checks = append(checks, storeChecks(cfg)...)
		add(endpointCheck(ctx, o, cfg))
		if r := team(cfg); r != nil {
			add(teamCheck(ctx, r))
		}
		add(serviceCheck(o.globalOptions, cfg))
	}
	failed := 0
	for _, c := range checks {
		if c.Status == "fail" {
			failed++
		}
	}
	if err := o.print(doctorResult{Checks: checks, Failed: failed}); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%w (%d)", errChecksFailed, failed)
	}
	return nil
}

type doctorResult struct {
	Checks []check `json:"checks"`
	Failed int     `json:"failed"`
}

func (r doctorResult) render(w io.Writer, markdown bool) error {
	if markdown {
		t := table{header: []string{"STATUS", "CHECK", "DETAIL", "FIX"}}
		for _, c := range r.Checks {
			t.rows = append(t.rows, []string{c.Status, c.Name, c.Detail, c.Fix})
		}
		return t.render(w, true)
	}
	marks := map[string]string{"ok": "ok  ", "warn": "warn", "fail": "FAIL"}
	for _, c := range r.Checks {
		fmt.Fprintf(w, "%s  %s: %s\n", marks[c.Status], c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(w, "      fix: %s\n", c.Fix)
		}
	}
	return nil
}

func sourceChecks(g *globalOptions, cfg *config.Config) []check {
	var out []check
	for _, src := range cfg.Sources {
		c := check{Name: "source " + src.Kind, Status: "ok"}
		a, err := transcript.New(src.Kind)
		if err != nil {
			c.Status, c.Detail = "fail", err.Error()
			out = append(out, c)
			continue
		}
		files, skipped, err := a.Discover(transcript.Source{Kind: src.Kind, Path: src.Path, Project: src.Project})
		switch {
		case err != nil:
			c.Status, c.Detail, c.Fix = "fail", fmt.Sprintf("%s: %v", src.Path, err), "check the path and its permissions"
		case len(files) == 0 && len(skipped) == 1 && skipped[0].Reason == "source path does not exist":
			c.Status, c.Detail = "warn", src.Path+" does not exist (the agent is not installed, or keeps its transcripts elsewhere)"
			c.Fix = "set sources[].path to where it keeps them, or remove the source"
		default:
			c.Detail = fmt.Sprintf("%s: %d transcript files, %d skipped (see `%s`)", src.Path, len(files), len(skipped), g.hint("sessions"))
		}
		out = append(out, c)
	}
	return out
}

func storeChecks(cfg *config.Config) []check {
	targets, _, err := phases.Discover(routingEnv(cfg))
	if err != nil {
		return []check{{Name: "stores", Status: "fail", Detail: err.Error()}}
	}
	if len(targets) == 0 {
		return []check{{Name: "stores", Status: "ok", Detail: "none yet: no transcript has been routed to a store"}}
	}
	red, err := redactor(cfg)
	if err != nil {
		return []check{{Name: "stores", Status: "fail", Detail: err.Error()}}
	}
	var out []check
	for _, t := range targets {
		c := check{Name: "store", Status: "ok"}
		s, err := store.Load(t.Paths.Store)
		if err != nil {
			c.Status, c.Detail, c.Fix = "fail", fmt.Sprintf("%s: %v", t.Paths.Store, err), "check the directory and its permissions"
			out = append(out, c)
			continue
		}
		var notes []string
		if h, busy := store.Inspect(t.Paths); busy {
			notes = append(notes, fmt.Sprintf("locked by pid %d (%s) since %s", h.PID, h.Who, h.Since.Format(time.RFC3339)))
		}
		if unclean := s.Unclean(); len(unclean) > 0 {
			notes = append(notes, "files with control bytes (read without them): "+strings.Join(unclean, ", "))
		}
		if kept := s.Verbatim(); len(kept) > 0 {
			notes = append(notes, "front matter dreamd cannot write back (left as written until its YAML is fixed): "+strings.Join(kept, ", "))
		}
		var secrets []string
		for _, m := range s.Memories {
			if found := red.Find(string(m.Raw)); len(found) > 0 {
				secrets = append(secrets, fmt.Sprintf("%s.md (%s)", m.Name, found[0].Kind))
			}
		}
		c.Detail = fmt.Sprintf("%s: %d memories", t.Paths.Store, len(s.Memories))
		if len(notes) > 0 {
			c.Detail += "; " + strings.Join(notes, "; ")
		}
		if len(secrets) > 0 {
			c.Status = "fail"
			c.Detail += "; credentials in " + strings.Join(secrets, ", ")
			c.Fix = "remove them from those files: agents that load the memory directly (Claude Code) send it to their model; dreamd only redacts what it sends itself"
		}
		out = append(out, c)
		out = append(out, followedChecks(t.Paths, s)...)
	}
	return out
}

func endpointCheck(ctx context.Context, o *doctorOptions, cfg *config.Config) check {
	c := check{Name: "endpoint", Status: "ok"}
	if cfg.LLM.UseOffline() {
		c.Detail = "offline consolidator (" + offlineReason(cfg) + "): no endpoint to check"
		return c
	}
	client := extract.NewClient(extract.ClientConfig{
		BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, Timeout: cfg.LLM.Timeout,
		MaxRetries: 1, APIVersion: cfg.LLM.APIVersion, MaxOutput: cfg.LLM.MaxOutputTokens,
		Shapes: extract.NewShapeMemory(stateFile(cfg, "endpoints.json"), false),
	})
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	format, err := client.Probe(ctx)
	if err != nil {
		c.Status, c.Detail, c.Fix = "fail", fmt.Sprintf("model %s: %v", cfg.LLM.Model, err), endpointFix(o.globalOptions, err.Error())
		return c
	}
	c.Detail = fmt.Sprintf("model %s answers a structured probe (response format %s)", cfg.LLM.Model, format)
	return c
}

// endpointFix guesses the fix from a failed probe's message.
func endpointFix(g *globalOptions, msg string) string {
	switch {
	case strings.Contains(msg, "401"), strings.Contains(msg, "403"), strings.Contains(msg, "no API key"):
		return "check llm.api_key (or OPENAI_API_KEY) for this endpoint"
	case strings.Contains(msg, "404"):
		return "check llm.model (the deployment name on Azure) and llm.base_url (it usually ends in /v1)"
	case strings.Contains(msg, "connection refused"), strings.Contains(msg, "no such host"), strings.Contains(msg, "deadline"):
		return "check that the server at llm.base_url is running and reachable"
	}
	return "see the message; `" + g.hint("run", "--once", "--dry-run", "--log-level", "debug") + "` shows the whole exchange"
}

// offlineReason says why the offline consolidator runs, for logs, the report and doctor.
func offlineReason(cfg *config.Config) string {
	if cfg.LLM.Offline {
		return "llm.offline is set"
	}
	return "no LLM endpoint configured: set llm.base_url or OPENAI_API_KEY to use a model"
}

func serviceCheck(g *globalOptions, cfg *config.Config) check {
	c := check{Name: "service", Status: "ok"}
	files, timer, err := service.Installed(service.Options{})
	unreachable := service.Reachable(service.Options{})
	switch {
	case err == nil && unreachable != nil && (len(files) == 0 || !timer && !readDaemon(cfg).Running):
		c.Status = "warn"
		c.Detail = "no service manager to run dreamd: " + unreachable.Error()
		if len(files) > 0 {
			c.Status, c.Detail = "fail", "installed ("+strings.Join(files, ", ")+") but not running; "+c.Detail
		}
		c.Fix = "`loginctl enable-linger $USER`, then log in again, starts your systemd user manager; without one, run `" + g.hint("run") + "` yourself (in tmux or screen) or `" + g.hint("run", "--once", "--gated", "--brief") + "` from cron"
	case err != nil:
		c.Status, c.Detail = "warn", err.Error()
	case len(files) == 0:
		c.Status, c.Detail, c.Fix = "warn", "not installed: passes run only when you start them", "`"+g.hint("install")+"` (or `"+g.hint("install", "--timer")+"`)"
	case timer:
		c.Detail = "timer installed: " + strings.Join(files, ", ")
	default:
		d := readDaemon(cfg)
		c.Detail = "installed: " + strings.Join(files, ", ")
		if !d.Running {
			c.Status, c.Fix = "fail", "systemctl --user restart dreamd (journalctl --user -u dreamd says why it stopped)"
			c.Detail += "; the daemon is not running"
		} else {
			c.Detail += fmt.Sprintf("; running as pid %d", d.PID)
		}
	}
	return c
}

// stateFile is a file of dreamd's in the state directory.
func stateFile(cfg *config.Config, name string) string {
	return cfg.StateDir + string(os.PathSeparator) + name
}

// configFailure is the config check of a configuration that does not load: the check's name says
// it is the config, so the detail does not say it again, and the fix names the file to correct.
func configFailure(err error) check {
	c := check{Name: "config", Status: "fail", Detail: err.Error(), Fix: "correct the key it names"}
	var ce *config.Error
	if errors.As(err, &ce) {
		c.Detail = ce.Detail()
		if ce.File != "" {
			c.Detail = ce.File + ": " + c.Detail
			c.Fix = "correct the key it names in " + ce.File
		}
	}
	return c
}
