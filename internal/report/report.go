// Package report renders what a pass did or would do: per store the sessions read, tokens, counts,
// index size against the caps, every operation with its reason and evidence, what was rejected,
// retired, cut or deferred, and a git-style unified diff of every file that changes.
package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

// Formats are the report formats of --format.
var Formats = []string{"text", "markdown", "json"}

// Options say what a report shows beyond the summary.
type Options struct {
	// AppliedDiff shows the diff of runs already applied too. A dry run's or a plan's diff is
	// always shown: it is what they are for; an applied run names `dreamd history show RUN --diff`.
	AppliedDiff bool
	// Redactor redacts what the diff shows (nil: the built-in rules): the "-" lines of a
	// hand-written memory can hold a credential.
	Redactor *redact.Redactor
	// Hint makes the dreamd command lines the report advises (undo, the diff, apply) as the user
	// can run them, with their --config; nil: plain `dreamd ARGS`.
	Hint func(args ...string) string
}

// hint is a dreamd command line for the report.
func (opt Options) hint(args ...string) string {
	if opt.Hint == nil {
		return "dreamd " + strings.Join(args, " ")
	}
	return opt.Hint(args...)
}

// Write renders outcomes in format (text, markdown or json).
func Write(w io.Writer, format string, outcomes []phases.Outcome, opt Options) error {
	switch format {
	case "json":
		return writeJSON(w, outcomes, opt)
	case "markdown":
		return render(w, outcomes, markdown, opt)
	case "text", "":
		return render(w, outcomes, text, opt)
	}
	return fmt.Errorf("unknown format %q (one of %s)", format, strings.Join(Formats, ", "))
}

// style is what differs between text and markdown.
type style struct {
	store   func(string) string
	section func(string) string
	item    string // how a list item starts
	indent  string // how a store's summary lines start
	diff    func(string) string
}

var text = style{
	store:   func(s string) string { return "store " + s },
	section: func(s string) string { return "  " + s + ":" },
	item:    "    ",
	indent:  "  ",
	diff:    func(d string) string { return d },
}

var markdown = style{
	store:   func(s string) string { return "## Store `" + s + "`" },
	section: func(s string) string { return "\n**" + s + "**\n" },
	item:    "- ",
	indent:  "",
	diff:    func(d string) string { return "```diff\n" + d + "```" },
}

// showDiff reports whether o's diff belongs in the report.
func showDiff(o phases.Outcome, opt Options) bool {
	return o.Plan != nil && (o.Result != phases.Applied || opt.AppliedDiff)
}

func render(w io.Writer, outcomes []phases.Outcome, st style, opt Options) error {
	var b strings.Builder
	if len(outcomes) == 0 {
		b.WriteString("No store has transcripts to consolidate.\n")
	}
	for i, o := range outcomes {
		if i > 0 {
			b.WriteString("\n")
		}
		writeOutcome(&b, o, st, opt)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeOutcome(b *strings.Builder, o phases.Outcome, st style, opt Options) {
	fmt.Fprintf(b, "%s\n", st.store(o.Store))
	fmt.Fprintf(b, "%s%s\n", st.indent, result(o, opt))
	p := o.Plan
	if p == nil {
		return
	}
	line := func(format string, args ...any) {
		fmt.Fprintf(b, "%s"+format+"\n", append([]any{st.indent}, args...)...)
	}
	line("consolidator: %s", consolidator(p))
	line("sessions read: %d (%s new), tokens: %d sent (%d cached), %d received%s", p.Counts.Sessions, ByteSize(p.Bytes), p.Usage.PromptTokens, p.Usage.CachedTokens, p.Usage.CompletionTokens, cost(p.Cost))
	c := p.Counts
	line("memories: %d created, %d updated, %d reinforced, %d merged, %d superseded, %d retired, %d rejected", c.Created, c.Updated, c.Reinforced, c.Merged, c.Superseded, c.Retired, c.Rejected)
	if len(p.Retaught) > 0 {
		line("re-taught: %d %s taught again after %s learnt — the agent is not following %s (`dreamd memories`, `dreamd pin NAME`)",
			len(p.Retaught), plural(len(p.Retaught), "lesson", "lessons"), plural(len(p.Retaught), "it was", "they were"), plural(len(p.Retaught), "it", "them"))
		for _, r := range p.Retaught {
			line("  %s: by %s (learnt %s, %d times since)", r.Name, strings.Join(r.Sessions, ", "), cmp.Or(r.Learnt, "on an unknown day"), r.Count)
		}
	}
	if len(p.Stale) > 0 {
		line("stale: %d %s something the project no longer has; marked %q in MEMORY.md, and the next call is asked to verify or retire %s",
			len(p.Stale), plural(len(p.Stale), "memory names", "memories name"), strings.TrimSpace(phases.StaleMark), plural(len(p.Stale), "it", "them"))
		for _, s := range p.Stale {
			line("  %s: %s", s.Name, s.Why)
		}
	}
	line("index: %d → %d lines (cap %d), %d → %d bytes (cap %d)", p.IndexBefore.Lines, p.IndexAfter.Lines, p.Limits.IndexMaxLines, p.IndexBefore.Bytes, p.IndexAfter.Bytes, p.Limits.IndexMaxBytes)
	if p.OverCap > 0 {
		line("index: still %d entries over its caps; each pass retires at most limits.max_retire_fraction of the store (--force lets the rest go now, or raise limits.index_max_lines / index_max_bytes)", p.OverCap)
	}
	if p.Redactions > 0 {
		line("secrets redacted before consolidation: %d", p.Redactions)
	}
	if p.Summary != "" {
		line("summary: %s", oneLine(p.Summary))
	}
	if len(p.Operations) > 0 {
		b.WriteString(st.section("operations") + "\n")
		for _, op := range p.Operations {
			writeOperation(b, op, p.Quotes[op.Name], st.item)
		}
	}
	for _, scope := range []memory.Scope{memory.ScopeUser, memory.ScopeTeam} {
		sent := slices.DeleteFunc(slices.Clone(p.Elsewhere), func(op extract.Operation) bool { return op.Scope != scope })
		if len(sent) == 0 {
			continue
		}
		b.WriteString(st.section(fmt.Sprintf("sent to the %s store (its pass merges them; this store keeps no copy)", scope)) + "\n")
		for _, op := range sent {
			writeOperation(b, op, p.Quotes[op.Name], st.item)
		}
	}
	if len(p.LeftOut) > 0 {
		b.WriteString(st.section("left out: new memories over the index caps (raise limits.index_max_lines / index_max_bytes to keep them)") + "\n")
		for _, op := range p.LeftOut {
			writeOperation(b, op, nil, st.item)
		}
	}
	if len(p.Repaired) > 0 {
		b.WriteString(st.section("repaired (mended, not dropped)") + "\n")
		for _, r := range p.Repaired {
			fmt.Fprintf(b, "%s%s: %s\n", st.item, r.Name, r.What)
		}
	}
	if len(p.Rejected) > 0 {
		b.WriteString(st.section("rejected operations (dropped)") + "\n")
		for _, r := range p.Rejected {
			fmt.Fprintf(b, "%s%s %q: %s\n", st.item, r.Operation.Action, r.Operation.Name, r.Reason)
		}
		for _, f := range p.OfferedAgain {
			fmt.Fprintf(b, "%soffered to the model again next pass: %s\n", st.item, f)
		}
		for _, f := range p.GaveUp {
			fmt.Fprintf(b, "%soffered %d times already, not again: %s\n", st.item, phases.MaxOffers, f)
		}
	}
	if len(p.Unclean) > 0 {
		b.WriteString(st.section("files with NUL or control bytes (read without them, left as they are)") + "\n")
		for _, f := range p.Unclean {
			// The very files whose names may hold the control bytes: shown without them.
			fmt.Fprintf(b, "%s%s\n", st.item, sanitize.Line(f))
		}
	}
	if len(p.Verbatim) > 0 {
		b.WriteString(st.section("files whose front matter dreamd cannot write back as written (never rewritten or retired; fix their YAML to let dreamd maintain them)") + "\n")
		for _, f := range p.Verbatim {
			fmt.Fprintf(b, "%s%s\n", st.item, sanitize.Line(f))
		}
	}
	if len(p.Secrets) > 0 {
		b.WriteString(st.section("credentials in existing memories (redacted from the request; remove them from the files)") + "\n")
		for _, f := range p.Secrets {
			fmt.Fprintf(b, "%s%s: %s\n", st.item, f.Memory, strings.Join(f.Kinds, ", "))
		}
	}
	if len(p.Retired) > 0 {
		b.WriteString(st.section("retired (moved to the archive)") + "\n")
		for _, r := range p.Retired {
			fmt.Fprintf(b, "%s%s %s: %s\n", st.item, r.Reason, r.Name, oneLine(r.Detail))
		}
	}
	if notes := slices.Concat(p.Cut, deferred(p.Deferred)); len(notes) > 0 {
		b.WriteString(st.section("cut or deferred") + "\n")
		for _, n := range notes {
			fmt.Fprintf(b, "%s%s\n", st.item, n)
		}
	}
	if len(p.Warnings) > 0 {
		b.WriteString(st.section("warnings") + "\n")
		for _, w := range p.Warnings {
			fmt.Fprintf(b, "%s%s\n", st.item, w)
		}
	}
	if !showDiff(o, opt) {
		if len(p.Changes) > 0 {
			line("files: %d changed (the diff: `%s`)", len(p.Changes), opt.hint("history", "show", p.RunID, "--diff"))
		}
		return
	}
	if d := store.Diff(p.Changes, opt.Redactor); d != "" {
		b.WriteString("\n" + st.diff(d))
		if !strings.HasSuffix(d, "\n") {
			b.WriteString("\n")
		}
	}
}

func result(o phases.Outcome, opt Options) string {
	switch {
	case o.Err != nil:
		return fmt.Sprintf("%s: %v", o.Result, o.Err)
	case o.Result == phases.Parked:
		return string(o.Result) + ": " + o.Detail
	case o.Pending != "":
		return fmt.Sprintf("%s: plan saved to %s (review it operation by operation with `%s`, or apply it whole with `%s`)",
			o.Result, o.Pending, opt.hint("review", o.Pending), opt.hint("apply", o.Pending))
	case o.Result == phases.DryRun:
		return "dry run: nothing written"
	case o.Plan != nil && o.Result == phases.Applied:
		return fmt.Sprintf("applied as run %s (undo with `%s`)", o.Plan.RunID, opt.hint("rollback", o.Plan.RunID))
	case o.Detail != "":
		return string(o.Result) + ": " + o.Detail
	}
	return string(o.Result)
}

// cost is ", cost $0.0123" when prices are configured.
func cost(usd float64) string {
	if usd == 0 {
		return ""
	}
	return fmt.Sprintf(", cost $%.4f", usd)
}

func consolidator(p *phases.Plan) string {
	if p.Offline {
		return "offline (" + cmp.Or(p.OfflineWhy, "no LLM endpoint configured") + ")"
	}
	return p.Consolidator
}

func writeOperation(b *strings.Builder, op extract.Operation, quotes []phases.Quote, item string) {
	mark := map[extract.Action]string{extract.Create: "+", extract.Update: "~", extract.Delete: "-"}[op.Action]
	fmt.Fprintf(b, "%s%s %s %s", item, mark, op.Action, op.Name)
	if op.Type != "" {
		fmt.Fprintf(b, " (%s)", op.Type)
	}
	if op.Description != "" {
		fmt.Fprintf(b, " — %s", op.Description)
	}
	b.WriteString("\n")
	pad := strings.Repeat(" ", len(item)+2)
	if op.Reason != "" {
		fmt.Fprintf(b, "%sreason: %s\n", pad, oneLine(op.Reason))
	}
	if len(op.MergedFrom) > 0 {
		fmt.Fprintf(b, "%smerged from: %s\n", pad, strings.Join(op.MergedFrom, ", "))
	}
	if len(op.Supersedes) > 0 {
		fmt.Fprintf(b, "%ssupersedes: %s\n", pad, strings.Join(op.Supersedes, ", "))
	}
	if len(op.Evidence) > 0 {
		fmt.Fprintf(b, "%sevidence: %s\n", pad, strings.Join(op.Evidence, ", "))
	}
	for _, q := range quotes {
		fmt.Fprintf(b, "%s%s\n", pad, QuoteLine(q))
	}
}

// QuoteLine is a quote as every text report shows it: the person's words, then where and when
// they were said.
func QuoteLine(q phases.Quote) string {
	return fmt.Sprintf("“%s” (%s:%s, turn %d, %s)", sanitize.Line(q.Text), sanitize.Line(q.Kind), sanitize.Line(q.Session), q.Turn, q.Date.UTC().Format(time.DateOnly))
}

func deferred(files []phases.FileRead) []string {
	var out []string
	for i, f := range files {
		if i == maxDeferredNamed && len(files) > maxDeferredNamed+1 {
			return append(out, fmt.Sprintf("and %d more transcript files deferred to the next pass", len(files)-i))
		}
		if len(f.Sessions) == 0 { // left unread: its sessions are not known yet
			out = append(out, fmt.Sprintf("deferred %s to the next pass", f.Path))
			continue
		}
		out = append(out, fmt.Sprintf("deferred %s (%d sessions) to the next pass", f.Path, len(f.Sessions)))
	}
	return out
}

// maxDeferredNamed is how many deferred files the text report names; a first pass over a long
// history defers thousands, which the JSON report lists in full.
const maxDeferredNamed = 5

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ByteSize formats a byte count for people: 512 B, 20.0 KB, 3.1 MB.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// jsonOutcome is the machine-readable form of one store's outcome: what the text report says,
// without the plan's internals (file contents, cursors, fingerprints), which only `dreamd apply`
// reads from a plan file.
type jsonOutcome struct {
	Store   string        `json:"store"`
	Result  phases.Result `json:"result"`
	Detail  string        `json:"detail,omitempty"`
	Error   string        `json:"error,omitempty"`
	Pending string        `json:"pending,omitempty"` // the plan file waiting for review
	Plan    *jsonPlan     `json:"plan,omitempty"`
	Diff    string        `json:"diff,omitempty"`
}

type jsonPlan struct {
	RunID         string                 `json:"run_id"`
	Created       string                 `json:"created"`
	Consolidator  string                 `json:"consolidator"`
	Offline       bool                   `json:"offline"`
	OfflineReason string                 `json:"offline_reason,omitempty"`
	Summary       string                 `json:"summary"`
	Counts        phases.Counts          `json:"counts"`
	Usage         extract.Usage          `json:"usage"`
	Cost          float64                `json:"cost_usd"`
	Bytes         int64                  `json:"bytes"` // transcript bytes read
	Redactions    int                    `json:"redactions"`
	Read          []phases.FileRead      `json:"read"`
	Deferred      []phases.FileRead      `json:"deferred"`
	Operations    []extract.Operation    `json:"operations"`
	Rejected      []extract.Rejected     `json:"rejected"`
	Repaired      []extract.Repaired     `json:"repaired"`
	Retired       []jsonRetired          `json:"retired"`
	LeftOut       []extract.Operation    `json:"left_out"`
	Elsewhere     []extract.Operation    `json:"elsewhere"` // sent to another scope's store (each operation's scope)
	OfferedAgain  []string               `json:"offered_again"`
	GaveUp        []string               `json:"gave_up"`
	Cut           []string               `json:"cut"`
	Warnings      []string               `json:"warnings"`
	Secrets       []phases.SecretFinding `json:"secrets"`
	Unclean       []string               `json:"unclean"`
	Verbatim      []string               `json:"verbatim"`
	Files         []jsonFile             `json:"files"`
	IndexBefore   memory.IndexStats      `json:"index_before"`
	IndexAfter    memory.IndexStats      `json:"index_after"`
	OverCap       int                    `json:"over_cap"`
	Retaught      []jsonRetaught         `json:"retaught"` // lessons taught again after they were learnt (counts.retaught)
	Stale         []jsonStale            `json:"stale"`    // memories whose citations no longer hold in the project
	// Quotes are the person's words from the operations' evidence sessions that support them,
	// each naming its operation (at most 3 an operation, of 200 characters; redacted).
	Quotes []jsonQuote `json:"quotes"`
}

// jsonRetaught is a lesson a pass saw taught again after it was learnt.
type jsonRetaught struct {
	Name     string   `json:"name"`
	Sessions []string `json:"sessions"` // kind:id
	Learnt   string   `json:"learnt"`   // YYYY-MM-DD, "" when unknown
	Count    int      `json:"count"`    // re-teachings recorded so far, these included
}

// jsonStale is a memory whose citations no longer hold, with what the project says.
type jsonStale struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

// jsonQuote is a quote of an operation's evidence (phases.Quote) with the operation's name.
type jsonQuote struct {
	Operation string `json:"operation"` // the memory the operation writes (as dreamd apply --only names it)
	phases.Quote
}

type jsonFile struct {
	Name   string           `json:"name"`
	Change store.ChangeKind `json:"change"` // create, update or delete
}

type jsonRetired struct {
	Name     string             `json:"name"`
	Reason   store.RetireReason `json:"reason"`
	Detail   string             `json:"detail"`
	Evidence []string           `json:"evidence"`
}

func planView(p *phases.Plan) *jsonPlan {
	v := &jsonPlan{RunID: p.RunID, Created: p.Created.UTC().Format(time.RFC3339), Consolidator: p.Consolidator, Offline: p.Offline,
		OfflineReason: p.OfflineWhy, Summary: p.Summary, Counts: p.Counts, Usage: p.Usage, Cost: p.Cost, Bytes: p.Bytes,
		Redactions: p.Redactions, Read: p.Read, Deferred: p.Deferred, Operations: p.Operations, Rejected: p.Rejected,
		Repaired: p.Repaired, LeftOut: p.LeftOut, Elsewhere: p.Elsewhere, OfferedAgain: p.OfferedAgain, GaveUp: p.GaveUp, Cut: p.Cut,
		Warnings: p.Warnings, Secrets: p.Secrets, Unclean: p.Unclean, Verbatim: p.Verbatim, IndexBefore: p.IndexBefore, IndexAfter: p.IndexAfter,
		OverCap: p.OverCap}
	for _, r := range p.Retaught {
		v.Retaught = append(v.Retaught, jsonRetaught(r))
	}
	for _, s := range p.Stale {
		v.Stale = append(v.Stale, jsonStale(s))
	}
	for _, r := range p.Retired {
		v.Retired = append(v.Retired, jsonRetired{Name: r.Name, Reason: r.Reason, Detail: r.Detail, Evidence: r.Evidence})
	}
	for _, c := range p.Changes {
		v.Files = append(v.Files, jsonFile{Name: c.Name, Change: c.Kind()})
	}
	for _, name := range slices.Sorted(maps.Keys(p.Quotes)) {
		for _, q := range p.Quotes[name] {
			v.Quotes = append(v.Quotes, jsonQuote{Operation: name, Quote: q})
		}
	}
	return v
}

func writeJSON(w io.Writer, outcomes []phases.Outcome, opt Options) error {
	out := make([]jsonOutcome, 0, len(outcomes))
	for _, o := range outcomes {
		j := jsonOutcome{Store: o.Store, Result: o.Result, Detail: o.Detail, Pending: o.Pending}
		if o.Err != nil {
			j.Error = o.Err.Error()
		}
		if o.Plan != nil {
			j.Plan = planView(o.Plan)
			if showDiff(o, opt) {
				j.Diff = store.Diff(o.Plan.Changes, opt.Redactor)
			}
		}
		out = append(out, j)
	}
	return JSON(w, map[string]any{"stores": out})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
