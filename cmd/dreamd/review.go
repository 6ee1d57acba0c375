package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

func newReviewCmd(g *globalOptions) *cobra.Command {
	o := &applyOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "review FILE|RUN",
		Short: "Decide on each operation of a plan, then apply the accepted ones",
		Long: `Show each operation of a plan saved by ` + "`dreamd plan`" + ` (or left pending by apply: review) with its
reason, its evidence sessions and their days, a few quotes of the person's words in them that
support it, and the diff of its memory, and read a key for it
from stdin: a accepts, r rejects, q quits and applies nothing. The accepted operations are then
applied as ` + "`dreamd apply --skip`" + ` applies them: derived again, checked like a whole plan, the
sessions that fed only rejected operations left for the next pass.`,
		Example: `  dreamd review 20261120T100000Z-a1b2c3   # a pending plan, by its run id
  printf 'a\n' | dreamd review shop.plan.json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("review takes exactly one plan file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Plan = args[0]
			keys := bufio.NewReader(cmd.InOrStdin())
			o.choose = func(p *phases.Plan) (phases.Selection, bool, error) {
				return reviewPlan(cmd.ErrOrStderr(), keys, p, o.redactedDiff)
			}
			return runApply(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "apply even a plan that retires more than limits.max_retire_fraction")
	projectFlag(cmd, g)
	return cmd
}

// redactedDiff is the diff of changes as every command shows one: redacted.
func (o *applyOptions) redactedDiff(changes []store.Change) string {
	cfg, err := o.load()
	if err != nil {
		return store.Diff(changes, nil)
	}
	red, err := redactor(cfg)
	if err != nil {
		return "(diff not shown: " + err.Error() + ")\n"
	}
	return store.Diff(changes, red)
}

// reviewPlan shows each operation of p on w and reads a key for it from keys: a accepts, r rejects,
// q (or the end of the input) quits. It returns the selection, and false when nothing is to be
// applied.
func reviewPlan(w io.Writer, keys *bufio.Reader, p *phases.Plan, diff func([]store.Change) string) (phases.Selection, bool, error) {
	names := phases.OperationNames(p)
	days := map[string]string{}
	for _, r := range p.Read {
		for _, s := range r.Sessions {
			days[s.ID] = s.Date.UTC().Format("2006-01-02")
		}
	}
	var rejected []string
	for i, name := range names {
		fmt.Fprintf(w, "\n[%d/%d] %s\n", i+1, len(names), name)
		for _, op := range slices.Concat(p.Operations, p.Elsewhere) {
			if op.Name == name {
				describeOperation(w, op, days, p.Quotes[name])
			}
		}
		var changes []store.Change
		for _, ch := range p.Changes {
			if ch.Name == name+".md" {
				changes = append(changes, ch)
			}
		}
		if len(changes) > 0 {
			fmt.Fprint(w, diff(changes))
		}
		for {
			fmt.Fprint(w, "accept this operation? [a]ccept, [r]eject, [q]uit: ")
			line, err := keys.ReadString('\n')
			key := strings.ToLower(strings.TrimSpace(line))
			switch {
			case key == "a":
			case key == "r":
				rejected = append(rejected, name)
			case key == "q" || err == io.EOF && key == "":
				fmt.Fprintln(w, "\nquit: nothing applied")
				return phases.Selection{}, false, nil
			case err != nil:
				return phases.Selection{}, false, err
			default:
				continue
			}
			break
		}
	}
	return phases.Selection{Skip: rejected}, true, nil
}

// describeOperation prints what an operation does and why, on lines a terminal shows as they are.
func describeOperation(w io.Writer, op extract.Operation, days map[string]string, quotes []phases.Quote) {
	fmt.Fprintf(w, "  %s %s", op.Action, sanitize.Line(op.Name))
	if op.Type != "" {
		fmt.Fprintf(w, " (%s)", op.Type)
	}
	if op.Scope != "" {
		fmt.Fprintf(w, ", for the %s store", op.Scope)
	}
	fmt.Fprintln(w)
	if op.Description != "" {
		fmt.Fprintf(w, "  description: %s\n", sanitize.Line(op.Description))
	}
	if len(op.MergedFrom) > 0 {
		fmt.Fprintf(w, "  merges: %s\n", sanitize.Line(strings.Join(op.MergedFrom, ", ")))
	}
	if len(op.Supersedes) > 0 {
		fmt.Fprintf(w, "  supersedes: %s\n", sanitize.Line(strings.Join(op.Supersedes, ", ")))
	}
	fmt.Fprintf(w, "  reason: %s\n", sanitize.Line(op.Reason))
	for _, id := range op.Evidence {
		day := days[id]
		if _, bare, ok := strings.Cut(id, ":"); ok && day == "" {
			day = days[bare]
		}
		fmt.Fprintf(w, "  evidence: %s %s\n", sanitize.Line(id), day)
	}
	for _, q := range quotes {
		fmt.Fprintf(w, "  %s\n", report.QuoteLine(q))
	}
}
