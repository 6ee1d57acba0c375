package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
)

type planOptions struct {
	*globalOptions
	Output string
}

func newPlanCmd(g *globalOptions, runF func(*planOptions) error) *cobra.Command {
	o := &planOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "plan [-o FILE]",
		Short: "Make a plan for review; apply it later with `dreamd apply FILE`",
		Long: `Make one pass like run --once --dry-run and save the plan: the operations, the exact new content
of every file, and fingerprints of the store and of every transcript it read. Print the report.
` + "`dreamd apply FILE`" + ` later applies exactly that plan without calling the model, and refuses
(exit 4) when the store or the transcripts changed since.

With one store, -o FILE names the plan file; with several, -o names a directory that receives one
plan per store (-o DIR/ makes it). Without -o, plans go to the current directory as dreamd-plan-<run id>.json.`,
		Example: `  dreamd plan                                  # dreamd-plan-<run id>.json here
  dreamd plan --project ~/src/shop -o shop.plan.json
  dreamd plan -o plans/                        # one plan per store`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			if runF != nil {
				return runF(o)
			}
			return runPlan(o)
		},
	}
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "plan file (or directory, with several stores)")
	projectFlag(cmd, g)
	return cmd
}

func runPlan(o *planOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	if err := checkPlanOutput(o.Output); err != nil {
		return err
	}
	log := o.logger(cfg)
	env, err := o.env(cfg, log, true) // a plan is written where -o says, nothing else
	if err != nil {
		return err
	}
	outcomes, runErr := phases.Run(o.cmd.Context(), env, phases.Options{DryRun: true, Store: only})
	var plans []*phases.Plan
	for _, out := range outcomes {
		if out.Plan != nil && out.Err == nil {
			plans = append(plans, out.Plan)
		}
	}
	if len(plans) > 1 && o.Output != "" && !isDir(o.Output) {
		return errors.Join(runErr, usagef(fmt.Sprintf("-o %s names one file, but %d stores have a plan: name a directory (`dreamd plan -o plans/`) or one store (`dreamd plan --project DIR -o %s`)", o.Output, len(plans), o.Output)))
	}
	for i := range outcomes {
		p := outcomes[i].Plan
		if p == nil || outcomes[i].Err != nil {
			continue
		}
		path := planPath(o.Output, p, len(plans))
		if err := phases.WritePlan(path, p, cfg.StateDir); err != nil {
			return errors.Join(runErr, err)
		}
		outcomes[i].Result, outcomes[i].Pending = phases.Planned, path
	}
	if err := report.Write(o.Out, o.Format, outcomes, report.Options{Redactor: env.Redactor, Hint: o.hint}); err != nil {
		return err
	}
	if len(plans) == 0 && runErr == nil {
		fmt.Fprintln(o.Err, "nothing to plan: no store has new material")
	}
	return runErr
}

// checkPlanOutput refuses an -o whose folder does not exist before the pass pays for a model call;
// an -o that ends in a slash names a directory, made as `mkdir -p` would.
func checkPlanOutput(output string) error {
	if output == "" {
		return nil
	}
	dir := filepath.Dir(output)
	if strings.HasSuffix(output, string(filepath.Separator)) {
		dir = output
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return usagef(fmt.Sprintf("-o %s: %v", output, err))
		}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usagef(fmt.Sprintf("-o %s: the folder %s does not exist", output, dir))
	}
	return nil
}

func planPath(output string, p *phases.Plan, n int) string {
	name := "dreamd-plan-" + p.RunID + ".json"
	switch {
	case output == "":
		return name
	case n > 1 || isDir(output):
		return filepath.Join(output, name)
	}
	return output
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
