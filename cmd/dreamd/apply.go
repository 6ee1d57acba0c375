package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/safefile"
)

type applyOptions struct {
	*globalOptions
	Plan   string // the plan file
	Force  bool
	Only   []string // accept only the operations on these memories
	Skip   []string // reject the operations on these memories
	Edit   []string // NAME=FILE: accept the operation on NAME with the memory FILE holds (phases.ParseEdit)
	DryRun bool
	// onlyGiven: --only was given, though perhaps with no name (--only "" from an empty list).
	onlyGiven bool
	// choose, when set (dreamd review), decides on each operation of the plan read, previewing
	// a selection (an edit's result) with preview; false: the person quit, and nothing is applied.
	choose func(p *phases.Plan, preview func(phases.Selection) (*phases.Plan, error)) (phases.Selection, bool, error)
}

func newApplyCmd(g *globalOptions, runF func(*applyOptions) error) *cobra.Command {
	o := &applyOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "apply FILE|RUN",
		Short: "Apply a reviewed plan exactly, without calling the model",
		Long: `Apply a plan saved by ` + "`dreamd plan`" + ` (or left pending by apply: review), exactly as reviewed.
Refused with exit 4 when the store or a transcript it covers changed since the plan was made, and
when the plan was applied before (rolled back since or not): a plan is applied once.

--only and --skip apply it in part: an operation is named by the memory it creates, updates,
deletes or merges into (dreamd review lists them). The files are derived again from the accepted
operations and checked like a whole plan's; the sessions that fed only rejected operations stay
unconsumed, so the next pass may offer their lessons again (at most twice). --edit NAME=FILE
accepts the operation on NAME with the text FILE holds instead of the plan's (the layout dreamd
review's e opens in the editor: a front matter of name, type and description, then the body);
the edited operation is checked as the model's is (type, caps, secrets, pins), the history records
it as edited. --dry-run shows what would be written, and writes nothing.`,
		Example: `  dreamd plan --project ~/src/shop -o shop.plan.json && less shop.plan.json
  dreamd apply shop.plan.json
  dreamd apply 20261120T100000Z-a1b2c3   # a pending plan, by its run id
  dreamd apply shop.plan.json --skip deploy-sh-migrated-to-postgres --dry-run
  dreamd apply shop.plan.json --only deploy-sh-migrated-to-postgres
  dreamd apply shop.plan.json --edit deploy-sh-migrated-to-postgres=deploy.md --dry-run
  dreamd apply ~/.local/state/dreamd/stores/-home-ana-src-shop/pending/20261120T100000Z-a1b2c3.json --force`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("apply takes exactly one plan file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Plan = args[0]
			o.onlyGiven = cmd.Flags().Changed("only")
			if runF != nil {
				return runF(o)
			}
			return runApply(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Force, "force", false, "apply even a plan that retires more than limits.max_retire_fraction")
	cmd.Flags().StringSliceVar(&o.Only, "only", nil, "apply only the operations on these memories (`NAME`s, repeated or comma-separated)")
	cmd.Flags().StringSliceVar(&o.Skip, "skip", nil, "apply every operation but those on these memories (`NAME`s)")
	cmd.Flags().StringArrayVar(&o.Edit, "edit", nil, "accept the operation on `NAME=FILE` with the memory text FILE holds (repeated)")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "show the files the apply would change, and write nothing")
	projectFlag(cmd, g)
	return cmd
}

func runApply(ctx context.Context, o *applyOptions) error {
	file := o.Plan
	// An empty selection applies the whole plan: --only "" (a script's empty list of accepted
	// operations) must not mean that.
	if o.onlyGiven && len(o.Only) == 0 {
		return usagef(`--only names no operation (to reject every operation, --skip them all; to drop a pending plan, dreamd discard RUN)`)
	}
	for _, name := range o.Only {
		if slices.Contains(o.Skip, name) {
			return usagef(fmt.Sprintf("--only and --skip both name %q: accept it or reject it", name))
		}
	}
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	log := o.logger(cfg)
	env, err := o.env(cfg, log, false)
	if err != nil {
		return err
	}
	if file, err = planArg(only, cfg, file); err != nil {
		return err
	}
	p, err := phases.ReadPlan(file, cfg.StateDir)
	if errors.Is(err, phases.ErrTampered) {
		return err
	}
	if err != nil {
		return usagef(err.Error())
	}
	d := &driver{cfg: cfg, env: env, log: log}
	sel := phases.Selection{Only: o.Only, Skip: o.Skip}
	if sel.Edits, err = readEdits(o.Edit); err != nil {
		return err
	}
	if o.choose != nil {
		var apply bool
		preview := func(sel phases.Selection) (*phases.Plan, error) { return d.applyPart(ctx, p, sel, o.Force, true) }
		if sel, apply, err = o.choose(p, preview); err != nil || !apply {
			return err
		}
	}
	if p, err = d.applyPart(ctx, p, sel, o.Force, o.DryRun); err != nil {
		if errors.Is(err, phases.ErrNoOperation) || errors.Is(err, phases.ErrBadEdit) {
			return usagef(err.Error())
		}
		return err
	}
	files := []string{}
	for _, c := range p.Changes {
		files = append(files, c.Name)
	}
	return o.print(applyResult{Run: p.RunID, Store: p.Store, Files: files, Retired: len(p.Retired), Undo: o.hint("rollback", p.RunID),
		DryRun: o.DryRun, Operations: phases.OperationNames(p), Edited: p.Edited})
}

type applyResult struct {
	Run     string   `json:"run"`
	Store   string   `json:"store"`
	Files   []string `json:"files"`   // store files changed
	Retired int      `json:"retired"` // memories archived
	Undo    string   `json:"-"`       // the command that rolls the run back
	// DryRun: nothing was written; Files are those the apply would change.
	DryRun     bool     `json:"dry_run,omitempty"`
	Operations []string `json:"operations"` // the operations applied, by memory name
	Edited     []string `json:"edited"`     // those of them applied with a person's text (--edit, review's e)
}

func (r applyResult) render(w io.Writer, _ bool) error {
	if r.DryRun {
		_, err := fmt.Fprintf(w, "would apply plan %s to %s (%s): %d files changed (%s), %d memories retired; nothing written\n",
			r.Run, r.Store, plural(len(r.Operations), "1 operation", fmt.Sprintf("%d operations", len(r.Operations))),
			len(r.Files), strings.Join(r.Files, ", "), r.Retired)
		return err
	}
	edited := ""
	if len(r.Edited) > 0 {
		edited = ", edited: " + strings.Join(r.Edited, ", ")
	}
	_, err := fmt.Fprintf(w, "applied plan %s to %s: %d files changed, %d memories retired%s (undo with `%s`)\n",
		r.Run, r.Store, len(r.Files), r.Retired, edited, r.Undo)
	return err
}

// readEdits reads the --edit NAME=FILE flags: each file an edited memory (phases.ParseEdit) whose
// name, when it gives one, must be NAME.
func readEdits(flags []string) ([]phases.Edit, error) {
	var edits []phases.Edit
	for _, f := range flags {
		name, path, ok := strings.Cut(f, "=")
		if !ok || name == "" || path == "" {
			return nil, usagef(fmt.Sprintf("--edit %q: want NAME=FILE", f))
		}
		b, err := safefile.ReadFile(path, maxEditFile)
		if err != nil {
			return nil, usagef(fmt.Sprintf("--edit %s: %v", name, err))
		}
		e, err := phases.ParseEdit(string(b))
		if err != nil {
			return nil, usagef(fmt.Sprintf("--edit %s: %s: %v", name, path, err))
		}
		if e.Name != "" && e.Name != name {
			return nil, usagef(fmt.Sprintf("--edit %s: %s names the memory %q: an edit keeps the operation's name (reject it instead)", name, path, e.Name))
		}
		e.Name = name
		edits = append(edits, e)
	}
	return edits, nil
}

// maxEditFile bounds an edited memory as read: a memory's body is capped far below it.
const maxEditFile = 1 << 20
