package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/eval/suite"
	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/daemon"
	"github.com/dreamd/dreamd/internal/eval"
	"github.com/dreamd/dreamd/internal/extract/offline"
)

type evalOptions struct {
	*globalOptions
	Suite   string
	Offline bool
	Jobs    int
	Work    string
	Run     string
}

func newEvalCmd(g *globalOptions, runF func(*evalOptions) error) *cobra.Command {
	o := &evalOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use: "eval",
		Example: `  dreamd eval                          # the built-in suite with the configured consolidator
  dreamd eval --run 'postgres|pnpm' --format markdown
  OPENAI_API_KEY=… dreamd eval --format json > eval.json`,
		Short: "Score the configured consolidator on a suite of scenarios",
		Long: `Run a suite of scenarios through the full pipeline with the configured consolidator (the offline
one, or the model of llm.* — point --config at another file to compare models) and print a score
per category: lessons kept, duplicates merged, contradictions resolved, dates made absolute, noise
rejected, injections rejected, secrets withheld, index within caps, retired memories archived.

Each scenario (a directory with scenario.yaml, transcripts/ and maybe a starting store/) runs in
a directory of its own with its clock set to the scenario's day; your transcripts and memory
stores are neither read nor written. The suite defaults to ./eval/suite when present, else the one built into dreamd.
The exit status is 0 whatever the score; 2 when the suite itself is broken, 1 when every pass failed.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runEval(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Suite, "suite", "", "scenario suite directory (default ./eval/suite, else the built-in suite)")
	f.BoolVar(&o.Offline, "offline", false, "use the offline consolidator whatever the config says")
	f.IntVar(&o.Jobs, "jobs", 0, "scenarios run at once (default: every core offline, 1 with a model)")
	f.StringVar(&o.Work, "work", "", "keep each scenario's transcripts, store and state under this directory")
	f.StringVar(&o.Run, "run", "", "only scenarios whose name matches this regular expression")
	return cmd
}

func runEval(ctx context.Context, o *evalOptions) error {
	cfg, err := o.load()
	if err != nil {
		return err
	}
	log := o.logger(cfg)
	suite, where, err := o.loadSuite()
	if err != nil {
		return err
	}
	env, err := o.env(cfg, o.passLogger(cfg), false)
	if err != nil {
		return err
	}
	if o.Offline {
		env.Consolidator, env.ConsolidatorName = offline.New(), "offline"
	}
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = 1
		if env.ConsolidatorName == "offline" {
			jobs = runtime.GOMAXPROCS(0)
		}
	}
	log.Debug("evaluating", "suite", where, "scenarios", len(suite.Scenarios), "consolidator", env.ConsolidatorName, "jobs", jobs)
	opt := eval.Options{Base: env, Jobs: jobs, WorkDir: o.Work}
	if isTerminal(o.Err) {
		opt.Progress = evalProgress(o.Err)
	}
	rep, err := eval.Run(ctx, suite, opt)
	if err != nil {
		return err
	}
	if err := eval.Write(o.Out, o.Format, rep); err != nil {
		return err
	}
	if rep.Failed == len(rep.Scenarios) {
		return fmt.Errorf("every pass failed (%s: %s)", rep.Scenarios[0].Name, rep.Scenarios[0].Error)
	}
	return nil
}

// loadSuite reads --suite, else ./eval/suite, else the built-in suite, keeping only the
// scenarios --run selects. A broken suite is a usage error naming the scenario file.
func (o *evalOptions) loadSuite() (*eval.Suite, string, error) {
	dir := o.Suite
	if dir == "" {
		if fi, err := os.Stat(filepath.Join("eval", "suite")); err == nil && fi.IsDir() {
			dir = filepath.Join("eval", "suite")
		}
	}
	var fsys fs.FS
	where := "built-in"
	if dir == "" {
		fsys = suite.FS
	} else {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, "", usagef(fmt.Sprintf("--suite %s: not a directory", dir))
		}
		fsys, where = os.DirFS(dir), dir
	}
	suite, err := eval.LoadSuite(fsys)
	var se *eval.SuiteError
	if errors.As(err, &se) {
		file := "built-in suite " + se.Path
		if dir != "" {
			file = filepath.Join(dir, se.Path)
		}
		return nil, "", usagef(fmt.Sprintf("broken scenario: %s: %v", file, se.Err))
	}
	if err != nil {
		return nil, "", err
	}
	if o.Run != "" {
		re, err := regexp.Compile(o.Run)
		if err != nil {
			return nil, "", usagef("--run: " + err.Error())
		}
		suite.Scenarios = slices.DeleteFunc(suite.Scenarios, func(sc *eval.Scenario) bool { return !re.MatchString(sc.Name) })
		if len(suite.Scenarios) == 0 {
			return nil, "", usagef(fmt.Sprintf("--run %q matches no scenario", o.Run))
		}
	}
	return suite, where, nil
}

// passLogger is the logger of the passes: warnings and errors only, unless --log-level asks for
// more, so a suite's worth of passes does not bury the scores.
func (o *evalOptions) passLogger(cfg *config.Config) *slog.Logger {
	level := slog.LevelWarn
	if f := o.cmd.Flags().Lookup("log-level"); f != nil && f.Changed {
		level, _ = config.ParseLevel(cfg.Log.Level)
	}
	return slog.New(daemon.LogHandler(o.Err, level, cfg.Log.Format))
}

// evalProgress prints one line per finished scenario.
func evalProgress(w io.Writer) func(done, total int, r eval.ScenarioResult) {
	return func(done, total int, r eval.ScenarioResult) {
		passed, checks := r.Passed()
		status := fmt.Sprintf("%d/%d checks", passed, checks)
		if r.Error != "" {
			status += ", pass failed: " + r.Error
		}
		fmt.Fprintf(w, "[%*d/%d] %s: %s\n", len(fmt.Sprint(total)), done, total, r.Name, status)
	}
}
