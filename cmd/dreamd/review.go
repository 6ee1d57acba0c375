package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

func newReviewCmd(g *globalOptions) *cobra.Command {
	o := &applyOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "review FILE|RUN",
		Short: "Decide on each operation of a plan, then apply the accepted ones",
		Long: `Show each operation of a plan saved by ` + "`dreamd plan`" + ` (or left pending by apply: review) with its
action, type and description, its reason, its evidence sessions and their days, a few quotes of
the person's words in them that support it, and the diff of its memory, and read a key for it from
stdin: a accepts, r rejects, e edits, q quits and applies nothing. First it lists what dreamd
dropped itself (an operation holding a secret…) or mended (an unknown memory left out of a merge…).

e opens the memory the operation writes (name, type, description, body; an update's new text, a
merge's merged text) in $VISUAL, else $EDITOR, else vi, on a temporary file only you can read. The
edited text is checked as the model's is (type, caps, secrets, pins): refused, it says why and you
may edit again or reject; taken, the memory's diff is shown again for a or r.

At the end the decisions are summed up and applied as ` + "`dreamd apply --skip ... --edit ...`" + ` applies them:
derived again, checked like a whole plan, the sessions that fed only rejected operations left for
the next pass, the edited operations recorded in the history.`,
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
			o.choose = func(p *phases.Plan, preview func(phases.Selection) (*phases.Plan, error)) (phases.Selection, bool, error) {
				rv := reviewer{w: cmd.ErrOrStderr(), keys: keys, diff: o.redactedDiff, preview: preview, edit: runEditor(os.Getenv)}
				return rv.reviewPlan(p)
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

// reviewer goes through a plan's operations with a person: what it shows goes to w, the keys
// come from keys, diff renders changes, preview derives the plan a selection leaves (dry run),
// and edit lets the person rewrite a text (runEditor).
type reviewer struct {
	w       io.Writer
	keys    *bufio.Reader
	diff    func([]store.Change) string
	preview func(phases.Selection) (*phases.Plan, error)
	edit    func(text string) (string, error)
}

// reviewPlan shows each operation of p and reads a key for it: a accepts, r rejects, e edits its
// text (shown again as a diff once the edit is checked), q (or the end of the input) quits. It
// returns the selection, and false when nothing is to be applied.
func (rv reviewer) reviewPlan(p *phases.Plan) (phases.Selection, bool, error) {
	w := rv.w
	names := phases.OperationNames(p)
	days := phases.SessionDays(p)
	fmt.Fprintf(w, "plan %s for %s: %s\n", p.RunID, sanitize.Line(p.Store), plural(len(names), "1 operation", fmt.Sprintf("%d operations", len(names))))
	if p.Summary != "" {
		fmt.Fprintf(w, "summary: %s\n", sanitize.Line(p.Summary))
	}
	// What dreamd itself dropped or mended is not put to the person, but they judge the rest
	// knowing it (a pasted token the model wanted kept, a memory it named that does not exist).
	for _, r := range p.Rejected {
		fmt.Fprintf(w, "dropped before review: %s %s: %s\n", r.Operation.Action, sanitize.Line(r.Operation.Name), sanitize.Line(r.Reason))
	}
	for _, r := range p.Repaired {
		fmt.Fprintf(w, "mended before review: %s: %s\n", sanitize.Line(r.Name), sanitize.Line(r.What))
	}
	var rejected []string
	var edits []phases.Edit
	for i, name := range names {
		fmt.Fprintf(w, "\n[%d/%d] %s\n", i+1, len(names), name)
		var editable *extract.Operation
		for _, op := range slices.Concat(p.Operations, p.Elsewhere) {
			if op.Name == name {
				describeOperation(w, op, days, p.Quotes[name])
				if phases.Editable(op) {
					editable = &op
				}
			}
		}
		fmt.Fprint(w, fileDiff(rv.diff, p.Changes, name))
		var edited *phases.Edit
	keys:
		for {
			fmt.Fprint(w, "accept this operation? [a]ccept, [r]eject, [e]dit, [q]uit: ")
			line, err := rv.keys.ReadString('\n')
			key := strings.ToLower(strings.TrimSpace(line))
			switch {
			case key == "a":
				if edited != nil {
					edits = append(edits, *edited)
				}
				break keys
			case key == "r":
				rejected = append(rejected, name)
				break keys
			case key == "e" && editable == nil:
				fmt.Fprintln(w, "  nothing to edit: this operation writes no text of its own; accept or reject it")
			case key == "e":
				e, ok, err := rv.editOperation(*editable, edited, phases.Selection{Skip: rejected, Edits: edits})
				if err != nil {
					return phases.Selection{}, false, err
				}
				if ok {
					edited = &e
				}
			case key == "q" || err == io.EOF && key == "":
				fmt.Fprintln(w, "\nquit: nothing applied")
				return phases.Selection{}, false, nil
			case err != nil:
				return phases.Selection{}, false, err
			}
		}
	}
	fmt.Fprintln(w, "\n"+reviewSummary(len(names), rejected, edits))
	return phases.Selection{Skip: rejected, Edits: edits}, true, nil
}

// editOperation opens op's text (as edited so far: prev, nil for the plan's) in the editor, checks
// the result by deriving the plan the decisions so far and it leave, and shows the memory's diff
// then. It returns the edit, and false when there is none to take (unchanged, not a memory,
// refused: the person is told why and may edit again or reject).
func (rv reviewer) editOperation(op extract.Operation, prev *phases.Edit, sel phases.Selection) (phases.Edit, bool, error) {
	w := rv.w
	if prev != nil {
		op.Type, op.Description, op.Body = prev.Type, prev.Description, prev.Body
	}
	before := phases.EditText(op)
	after, err := rv.edit(before)
	if err != nil {
		fmt.Fprintf(w, "  the editor failed (%v); the text is as it was\n", err)
		return phases.Edit{}, false, nil
	}
	if after == before {
		fmt.Fprintln(w, "  unchanged")
		return phases.Edit{}, false, nil
	}
	e, err := phases.ParseEdit(after)
	if err == nil && e.Name != "" && e.Name != op.Name {
		err = fmt.Errorf("it names the memory %q: an edit keeps the operation's name %q (reject it instead)", e.Name, op.Name)
	}
	if err != nil {
		fmt.Fprintf(w, "  the edited text is not a memory: %s; [e] edits again, [r] rejects\n", sanitize.Line(err.Error()))
		return phases.Edit{}, false, nil
	}
	e.Name = op.Name
	sel.Edits = append(slices.Clone(sel.Edits), e)
	q, err := rv.preview(sel)
	if errors.Is(err, phases.ErrEditRefused) {
		fmt.Fprintf(w, "  %s\n", sanitize.Line(err.Error()))
		return phases.Edit{}, false, nil
	}
	if err != nil {
		return phases.Edit{}, false, err
	}
	for _, r := range q.Repaired {
		if r.Name == op.Name && strings.HasPrefix(r.What, "in the edit: ") {
			fmt.Fprintf(w, "  mended %s\n", sanitize.Line(r.What))
		}
	}
	fmt.Fprintf(w, "  edited: %s now writes\n", sanitize.Line(op.Name))
	fmt.Fprint(w, fileDiff(rv.diff, q.Changes, op.Name))
	return e, true, nil
}

// fileDiff is the diff of the memory file name among changes, "" when it is not changed.
func fileDiff(diff func([]store.Change) string, changes []store.Change, name string) string {
	var mine []store.Change
	for _, ch := range changes {
		if ch.Name == name+".md" {
			mine = append(mine, ch)
		}
	}
	if len(mine) == 0 {
		return ""
	}
	return diff(mine)
}

// reviewSummary says what the review decided, before it is applied.
func reviewSummary(n int, rejected []string, edits []phases.Edit) string {
	var edited []string
	for _, e := range edits {
		edited = append(edited, e.Name)
	}
	line := fmt.Sprintf("review: %d of %d operations accepted", n-len(rejected), n)
	if len(edited) > 0 {
		line += fmt.Sprintf(" (edited: %s)", strings.Join(edited, ", "))
	}
	if len(rejected) > 0 {
		line += fmt.Sprintf(", rejected: %s", strings.Join(rejected, ", "))
	}
	return line + "; applying"
}

// runEditor lets the person edit text in $VISUAL, else $EDITOR, else vi, on a temporary file only
// they can read, removed afterwards; the editor runs on the terminal when there is one.
func runEditor(getenv func(string) string) func(string) (string, error) {
	return func(text string) (string, error) {
		f, err := os.CreateTemp("", "dreamd-edit-*.md") // 0600
		if err != nil {
			return "", err
		}
		path := f.Name()
		defer os.Remove(path)
		if _, err := f.WriteString(text); err != nil {
			f.Close()
			return "", err
		}
		if err := f.Close(); err != nil {
			return "", err
		}
		editor := cmp.Or(getenv("VISUAL"), getenv("EDITOR"), "vi")
		// As git runs it: the variable may hold arguments ("code --wait").
		cmd := exec.Command("sh", "-c", editor+` "$1"`, editor, path)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr
		if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
			defer tty.Close()
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		}
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s: %w", editor, err)
		}
		b, err := safefile.ReadFile(path, maxEditFile)
		return string(b), err
	}
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
