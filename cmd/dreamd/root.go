package main

import (
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/daemon"
	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/extract/offline"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/store"
)

// globalOptions are the flags every command takes and the output the commands write to.
// (--log-level is read through the command's flags by config.Load.)
type globalOptions struct {
	ConfigFile string
	Store      string
	Project    string // --project: the store of this project directory, where a command takes one
	Format     string

	Out, Err io.Writer

	cmd *cobra.Command // the command being run, for its flags
}

func newRootCmd(g *globalOptions) *cobra.Command {
	root := &cobra.Command{
		Use:   "dreamd",
		Short: "Consolidate coding-agent transcripts into durable memory",
		Long: `dreamd reads the transcripts coding agents leave on disk (Claude Code, Codex CLI, Gemini CLI,
Qwen Code, Copilot CLI, OpenCode, Kilo, Crush, Cline, Cursor's agent, Aider, harness markdown,
chat JSON) and consolidates what they taught into memory directories:
one markdown topic file per memory plus a capped MEMORY.md index that Claude Code loads.

Each pass runs orient → gather → consolidate → prune and makes at most one structured LLM call
per store (any OpenAI-compatible endpoint), or uses the offline consolidator when none is set.
Review a pass with --dry-run before anything is written; every applied run can be rolled back.

` + exitCodesHelp,
		Example: `  dreamd run --once --dry-run      # what would a pass do with your transcripts?
  dreamd run --once                # do it
  dreamd install                   # keep doing it in the background
  dreamd status`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			g.cmd = cmd
			if !slices.Contains(report.Formats, g.Format) {
				return usagef(fmt.Sprintf("--format %q: want one of %s", g.Format, strings.Join(report.Formats, ", ")))
			}
			return nil
		},
	}
	root.Version = readBuildInfo().String()
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetOut(g.Out)
	root.SetErr(g.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef(err.Error()) })
	pf := root.PersistentFlags()
	pf.StringVar(&g.ConfigFile, "config", "", "config file (default $XDG_CONFIG_HOME/dreamd/config.yaml)")
	pf.StringVar(&g.Store, "store", "", "only this memory store (a directory)")
	pf.StringVar(&g.Format, "format", "text", "report format: text, markdown or json")
	pf.String("log-level", "info", "log level: debug, info, warn, error")
	fixedValues(root, "format", report.Formats...)
	fixedValues(root, "log-level", "debug", "info", "warn", "error")
	mustFlag(root.RegisterFlagCompletionFunc("store", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return completeStores(g), cobra.ShellCompDirectiveNoFileComp
	}))
	root.SetHelpCommand(newHelpCmd(root))
	root.AddCommand(
		newRunCmd(g, nil),
		newPlanCmd(g, nil),
		newApplyCmd(g, nil),
		newReviewCmd(g),
		newDiscardCmd(g, nil),
		newStatusCmd(g),
		newMemoriesCmd(g),
		newPinCmd(g),
		newSessionsCmd(g, nil),
		newHistoryCmd(g, nil),
		newRollbackCmd(g, nil),
		newInstallCmd(g),
		newUninstallCmd(g),
		newVersionCmd(g),
		newEvalCmd(g, nil),
		newRecallCmd(g, nil),
		newRememberCmd(g, nil),
		newPreambleCmd(g, nil),
		newMCPCmd(g, nil),
		newLinkCmd(g, nil),
		newUnlinkCmd(g, nil),
		newManCmd(g, nil),
		newDoctorCmd(g, nil),
		newGCCmd(g, nil),
		newUICmd(g, nil),
	)
	return root
}

// envWarned makes the warnings about unknown DREAMD_ variables once per process, however often
// the configuration is read.
var envWarned sync.Once

// load reads the configuration and checks the store --store or --project selects, if any (see
// loadStore).
func (g *globalOptions) load() (*config.Config, error) {
	cfg, _, err := g.loadStore()
	return cfg, err
}

// loadStore reads the configuration and resolves the store --store or --project selects: an
// absolute directory dreamd knows, "" when neither flag is given (every store). The options stay
// as the command line gave them: the resolved store is returned, for the command to pass on.
func (g *globalOptions) loadStore() (*config.Config, string, error) {
	var flags = g.cmd.Flags()
	cfg, err := config.Load(g.ConfigFile, flags)
	if err != nil {
		return nil, "", err
	}
	envWarned.Do(func() {
		for _, w := range config.UnknownEnv(os.Environ()) {
			g.logger(cfg).Warn(w)
		}
	})
	if g.Project != "" {
		dir, err := g.projectStore(cfg)
		if err != nil {
			return nil, "", err
		}
		if known, names := storeKnown(cfg, dir); !known {
			return nil, "", projectError(g.Project, dir, names)
		}
		return cfg, dir, nil
	}
	if g.Store == "" {
		return cfg, "", nil
	}
	abs, err := filepath.Abs(g.Store)
	if err != nil {
		return nil, "", usagef("--store: " + err.Error())
	}
	if err := checkStore(cfg, abs); err != nil {
		return nil, "", err
	}
	return cfg, abs, nil
}

// checkStore refuses a --store that names no store dreamd knows (one with state, the fixed store,
// or one the sources route to), listing those it does: a typo must not be a silent no-op.
func checkStore(cfg *config.Config, dir string) error {
	if ok, names := storeKnown(cfg, dir); !ok {
		return usagef(fmt.Sprintf("--store %s: not a memory store dreamd knows (known: %s)", dir, names))
	}
	return nil
}

// storeKnown reports whether dreamd knows the store in dir, and else lists those it knows.
func storeKnown(cfg *config.Config, dir string) (bool, string) {
	known := map[string]bool{}
	if cfg.Store.Mode == config.StoreFixed {
		known[cfg.Store.Path] = true
	}
	if stored, err := phases.KnownStores(cfg.StateDir); err == nil {
		for _, p := range stored {
			known[p.Store] = true
		}
	}
	if !known[dir] {
		if targets, _, err := phases.Discover(routingEnv(cfg)); err == nil {
			for _, t := range targets {
				known[t.Paths.Store] = true
			}
		}
	}
	if known[dir] {
		return true, ""
	}
	names := slices.Sorted(maps.Keys(known))
	if len(names) == 0 {
		return false, "none yet"
	}
	return false, strings.Join(names, ", ")
}

// logger builds the process logger from the configuration.
func (g *globalOptions) logger(cfg *config.Config) *slog.Logger {
	return loggerTo(g.Err, cfg)
}

// loggerTo is the process logger writing to w (a progress line that keeps itself below the log).
func loggerTo(w io.Writer, cfg *config.Config) *slog.Logger {
	level, _ := config.ParseLevel(cfg.Log.Level) // validated when the configuration was loaded
	return slog.New(daemon.LogHandler(w, level, cfg.Log.Format))
}

// env wires a configuration into what a pass needs: sources, stores, limits, the consolidator.
// env is what a pass takes from the configuration. A readOnly command (a dry run, a plan) writes
// nothing at all, not even what it learnt of the endpoints.
func (g *globalOptions) env(cfg *config.Config, log *slog.Logger, readOnly bool) (*phases.Env, error) {
	red, err := redact.New(cfg.Redact.Patterns)
	if err != nil {
		return nil, &config.Error{Key: "redact.patterns", Msg: err.Error()}
	}
	env := &phases.Env{
		StoreMode:          phases.StoreMode(cfg.Store.Mode),
		StoreRoot:          cfg.Store.Root,
		StorePath:          cfg.Store.Path,
		StateDir:           cfg.StateDir,
		SpecStory:          cfg.SpecStory,
		Limits:             cfg.Limits.Limits.OrDefaults(),
		MaxRetireFraction:  cfg.Limits.MaxRetireFraction,
		MaxInputTokens:     cfg.LLM.MaxInputTokens,
		MaxSessionsPerPass: cfg.Gather.MaxSessionsPerPass,
		Prices:             extract.Prices(cfg.LLM.Prices),
		TTL:                cfg.TTLs(),
		UnusedDays:         cfg.Prune.UnusedDays,
		Redactor:           red,
		Now:                time.Now,
		Log:                log,
		Hint:               g.hint,
	}
	env.Sources = sources(cfg)
	scoped(env, cfg)
	if cfg.LLM.UseOffline() {
		env.Consolidator, env.ConsolidatorName = offline.New(), "offline"
		env.OfflineReason = offlineReason(cfg)
		log.Debug("using the offline consolidator: " + env.OfflineReason)
	} else {
		env.Consolidator = extract.NewClient(extract.ClientConfig{
			BaseURL:     cfg.LLM.BaseURL,
			APIKey:      cfg.LLM.APIKey,
			Model:       cfg.LLM.Model,
			Timeout:     cfg.LLM.Timeout,
			MaxRetries:  cfg.LLM.MaxRetries,
			MaxOutput:   cfg.LLM.MaxOutputTokens,
			Concurrency: cfg.LLM.Concurrency,
			APIVersion:  cfg.LLM.APIVersion,
			Shapes:      extract.NewShapeMemory(filepath.Join(cfg.StateDir, "endpoints.json"), readOnly),
			Logger:      log,
		})
		env.ConsolidatorName = cfg.LLM.Model
		env.Concurrency = cfg.LLM.Concurrency
	}
	return env, nil
}

// keepOf is the configured run history to keep.
func keepOf(cfg *config.Config) store.Keep {
	day := 24 * time.Hour
	return store.Keep{Runs: cfg.History.KeepRuns, Age: time.Duration(cfg.History.KeepDays) * day, ArchiveAge: time.Duration(cfg.Archive.KeepDays) * day}
}

// isTerminal reports whether w is a terminal, for progress output; one test for the whole
// program, shared with the log handler.
var isTerminal = daemon.IsTerminal

// cobraUsagePrefixes are the messages cobra itself returns for a bad command line.
var cobraUsagePrefixes = []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires at least", "invalid argument"}

func isCobraUsage(err error) bool {
	for _, p := range cobraUsagePrefixes {
		if strings.HasPrefix(err.Error(), p) {
			return true
		}
	}
	return false
}

// recoverStores finishes any apply a killed dreamd left behind, so every command sees each store
// exactly as before or exactly as after a run.
func recoverStores(g *globalOptions, cfg *config.Config) {
	log := g.logger(cfg)
	phases.RecoverStores(cfg.StateDir, func(store, run string, err error) {
		if err != nil {
			log.Error("finishing an interrupted apply failed", "store", store, "err", err)
			return
		}
		log.Info("finished an interrupted apply", "store", store, "run", run)
	})
}
