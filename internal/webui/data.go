package webui

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/store"
)

// storeRef is a store dreamd knows, named in URLs by the folder of its state (its slug), which is
// only ever looked up among the known stores.
type storeRef struct {
	ID    string
	Paths store.Paths
	Shown string // the directory as a person reads it (~/…)
	Short string // its last folder's name (its project's, for a store in a folder named memory), for narrow columns
	Scope memory.Scope
}

// shortName is a store's folder name, or its project folder's for Claude Code's …/<project>/memory.
func shortName(dir string) string {
	base := filepath.Base(dir)
	if base == "memory" {
		return filepath.Base(filepath.Dir(dir))
	}
	return base
}

// stores are the stores dreamd has state for, in the order of their directories.
func (s *Server) stores() ([]storeRef, error) {
	known, err := phases.KnownStores(s.opt.StateDir)
	if err != nil {
		return nil, err
	}
	out := make([]storeRef, 0, len(known))
	for _, p := range known {
		if s.opt.Only != "" && p.Store != s.opt.Only {
			continue
		}
		out = append(out, storeRef{ID: filepath.Base(p.State), Paths: p, Shown: s.shown(p.Store), Short: shortName(p.Store), Scope: s.opt.ScopeOf(p.Store)})
	}
	slices.SortFunc(out, func(a, b storeRef) int { return strings.Compare(a.Shown, b.Shown) })
	return out, nil
}

// storeTitle is what a store's page is called: the project it serves, as a person reads its path
// (the projects its transcripts were read from, which the cursors keep), else its scope's store
// (a user or team store serves every project), else its directory; and the projects it serves.
func (s *Server) storeTitle(st storeRef) (string, []string) {
	var projects []string
	if cur, err := phases.LoadCursors(st.Paths); err == nil {
		for _, c := range cur {
			if c.Project != "" && !slices.Contains(projects, s.shown(c.Project)) {
				projects = append(projects, s.shown(c.Project))
			}
		}
	}
	slices.Sort(projects)
	switch {
	case st.Scope != "" && st.Scope != memory.ScopeProject:
		return strings.ToUpper(string(st.Scope[:1])) + string(st.Scope[1:]) + " store", projects
	case len(projects) == 1:
		return projects[0], projects
	case len(projects) > 1:
		return projects[0] + fmt.Sprintf(" (and %d more)", len(projects)-1), projects
	}
	return st.Shown, projects
}

// lookupStore finds the store whose id is id among those that exist.
func (s *Server) lookupStore(id string) (storeRef, bool) {
	all, err := s.stores()
	if err != nil {
		return storeRef{}, false
	}
	i := slices.IndexFunc(all, func(r storeRef) bool { return r.ID == id })
	if i < 0 {
		return storeRef{}, false
	}
	return all[i], true
}

// shown is a path as a person reads it: under the home directory as ~/….
func (s *Server) shown(path string) string {
	if s.opt.Home != "" && s.opt.Home != "/" {
		if rest, ok := strings.CutPrefix(path, s.opt.Home+string(filepath.Separator)); ok {
			return "~" + string(filepath.Separator) + rest
		}
	}
	return path
}

// red is text as every command shows it: secrets redacted, control bytes out.
func (s *Server) red(text string) string {
	text = sanitize.Text(text)
	if s.opt.Redactor == nil {
		return text
	}
	out, _ := s.opt.Redactor.Redact(text)
	return out
}

// runView is one run of a store's history.
type runView struct {
	Store      storeRef
	ID         string
	Time       time.Time
	Kind       string
	Summary    string
	Model      string
	Sessions   int
	Counts     phases.Counts
	Retired    []string
	Files      []string
	Tokens     int // sent: the prompt's tokens
	Cached     int
	Received   int
	Cost       float64
	Memories   *int // held once applied, when the run recorded it
	RolledBack string
	Undoes     []string
}

// runs are the runs of the stores given, oldest first.
func (s *Server) runs(stores []storeRef) []runView {
	var out []runView
	for _, st := range stores {
		hist, err := store.History(st.Paths)
		if err != nil {
			s.opt.Log.Warn("web view: cannot read a store's history", "store", st.Paths.Store, "err", err)
			continue
		}
		for _, e := range hist {
			var meta phases.HistoryMeta
			_ = json.Unmarshal(e.Meta, &meta) // a run without readable meta shows zero counts
			out = append(out, runView{Store: st, ID: e.RunID, Time: e.Time, Kind: string(e.Kind), Summary: s.red(meta.Summary), Model: meta.Consolidator,
				Sessions: meta.Sessions, Counts: meta.Counts, Retired: e.Retired, Files: e.Files,
				Tokens: meta.Usage.PromptTokens, Cached: meta.Usage.CachedTokens, Received: meta.Usage.CompletionTokens, Cost: meta.Cost,
				Memories: meta.Memories, RolledBack: e.RolledBack, Undoes: e.Undoes})
		}
	}
	slices.SortStableFunc(out, func(a, b runView) int { return a.Time.Compare(b.Time) })
	return out
}

// Rollbackable reports whether the page offers to roll the run back: it is not undone yet.
func (r runView) Rollbackable() bool { return r.RolledBack == "" }

// memoryView is one memory as its page shows it: redacted.
type memoryView struct {
	Name, Type, Description string
	FrontMatter, Body       string
	Pinned, Link, Verbatim  bool
	Created, Updated        string
	Learnt, Confirmed       string
	Retaught                []store.Retaught
	RetaughtCount           int
	Sources                 []string
	LastUsed                string
	Stale                   string
}

func (s *Server) viewMemory(m *store.Memory, used phases.Used, stale map[string]string) memoryView {
	v := memoryView{Name: m.Name, Type: string(m.Type), Description: s.red(m.Description), Pinned: m.Pinned, Link: m.Link, Verbatim: m.Verbatim,
		Created: m.Created, Updated: m.Updated, Learnt: m.Learnt, Confirmed: m.Confirmed, Retaught: m.Retaught,
		RetaughtCount: max(m.RetaughtCount, len(m.Retaught)), Sources: m.Sources, LastUsed: used[m.Name], Stale: stale[m.Name]}
	front, body := splitFrontMatter(string(m.Raw))
	v.FrontMatter, v.Body = s.red(front), s.red(body)
	if m.Raw == nil {
		v.Body = s.red(m.Body)
	}
	return v
}

// splitFrontMatter cuts a topic file into its front matter (without the --- lines) and its body.
func splitFrontMatter(raw string) (string, string) {
	rest, ok := strings.CutPrefix(raw, "---\n")
	if !ok {
		return "", raw
	}
	if front, body, ok := strings.Cut(rest, "\n---\n"); ok {
		return front, body
	}
	return "", raw
}

// storeSummary is a store's row on the front page.
type storeSummary struct {
	storeRef
	Memories int
	Pending  int
	Runs     int
	LastRun  time.Time
	Err      string
}

// planRef is a pending plan, named in URLs by its run id, looked up among the files of the
// store's pending/.
type planRef struct {
	Store storeRef
	ID    string
	File  string
}

func (s *Server) pending(stores []storeRef) []planRef {
	var out []planRef
	for _, st := range stores {
		for _, f := range phases.PendingPlans(st.Paths) {
			out = append(out, planRef{Store: st, ID: strings.TrimSuffix(filepath.Base(f), ".json"), File: f})
		}
	}
	return out
}

// opView is one operation of a pending plan, with what the person decides on.
type opView struct {
	Name     string
	Ops      []opLine
	Diff     []diffLine
	Retires  []string // other memories it retires (merged, superseded)
	Quotes   []quote  // the person's words in its evidence sessions that support it
	Accepted bool
	Err      string // why the last apply refused it (an edit the validator refuses)
	Open     bool   // its edit form starts open: the person changed its text
	Redacted bool   // the text the person sent held a credential, shown redacted
	// Edit is the text the page offers to rewrite (type, description, body), as shown: nil when the
	// operation writes no text of its own (a deletion) or several operations share the name.
	Edit *editText
}

// editText is the memory an operation writes, as its form shows it; a form that sends it back
// changed is the person's edit (phases.Edit), applied as `dreamd apply --edit` applies one.
type editText struct {
	Type, Description, Body string
	Types                   []string
}

// quote is an excerpt of a person's turn an operation was drawn from.
type quote struct {
	Session, When, Text string
	Turn                int
}

// opLine is one of the consolidator's operations writing that name.
type opLine struct {
	Action, Type, Description, Reason, Scope string
	MergedFrom, Supersedes                   []string
	Evidence                                 []evidence
}

type evidence struct {
	Session, Day string
}

// planView is a pending plan as its page shows it.
type planView struct {
	Ref        planRef
	Created    time.Time
	Summary    string
	Model      string
	Sessions   int
	Tokens     int
	Operations []opView
	Retired    []store.Retirement
	// Dropped are the operations the validator took out before review (one holding a secret…),
	// Mended what it repaired (an unknown memory left out of a merge…), as `dreamd review`'s
	// header lists them: the person judges the rest knowing the model proposed them.
	Dropped   []dropped
	Mended    []mended
	Err       string // the plan cannot be read
	Problem   string // why the last apply applied nothing
	ProblemAt string // the operation it is about, if one
}

type dropped struct{ Action, Name, Reason string }

type mended struct{ Name, What string }

func (s *Server) viewPlan(ref planRef, p *phases.Plan) planView {
	v := planView{Ref: ref, Created: p.Created, Summary: s.red(p.Summary), Model: p.Consolidator, Sessions: p.Counts.Sessions, Tokens: p.Usage.PromptTokens}
	days := phases.SessionDays(p)
	all := slices.Concat(p.Operations, p.Elsewhere)
	for _, name := range phases.OperationNames(p) {
		ov := opView{Name: name, Accepted: true}
		for _, q := range p.Quotes[name] {
			// Already redacted when the plan was made; redacted again as everything shown is.
			ov.Quotes = append(ov.Quotes, quote{Session: q.Kind + ":" + q.Session, When: q.Date.UTC().Format("2006-01-02 15:04"), Text: s.red(q.Text), Turn: q.Turn})
		}
		for _, op := range all {
			if op.Name != name {
				continue
			}
			line := opLine{Action: string(op.Action), Type: string(op.Type), Description: s.red(op.Description), Reason: s.red(op.Reason),
				MergedFrom: op.MergedFrom, Supersedes: op.Supersedes}
			if op.Scope != "" && op.Scope != ref.Store.Scope {
				line.Scope = string(op.Scope) // it goes to another store: say which
			}
			for _, id := range op.Evidence {
				day := days[id]
				if _, bare, ok := strings.Cut(id, ":"); ok && day == "" {
					day = days[bare]
				}
				line.Evidence = append(line.Evidence, evidence{Session: id, Day: day})
			}
			ov.Ops = append(ov.Ops, line)
			ov.Retires = append(ov.Retires, slices.Concat(op.MergedFrom, op.Supersedes)...)
		}
		var same []int // the operations writing name, by index
		for i, op := range all {
			if op.Name == name {
				same = append(same, i)
			}
		}
		if len(same) == 1 && phases.Editable(all[same[0]]) {
			op := all[same[0]]
			ov.Edit = &editText{Type: string(op.Type), Description: s.red(op.Description), Body: s.red(op.Body)}
			for _, t := range memory.Types {
				ov.Edit.Types = append(ov.Edit.Types, string(t))
			}
		}
		var changes []store.Change
		for _, ch := range p.Changes {
			if ch.Name == name+".md" || slices.Contains(ov.Retires, strings.TrimSuffix(ch.Name, ".md")) {
				changes = append(changes, ch)
			}
		}
		ov.Diff = diffLines(store.Diff(changes, s.opt.Redactor))
		v.Operations = append(v.Operations, ov)
	}
	v.Retired = p.Retired
	for _, r := range p.Rejected {
		v.Dropped = append(v.Dropped, dropped{Action: string(r.Operation.Action), Name: s.red(r.Operation.Name), Reason: s.red(r.Reason)})
	}
	for _, r := range p.Repaired {
		v.Mended = append(v.Mended, mended{Name: s.red(r.Name), What: s.red(r.What)})
	}
	return v
}

// diffLine is one line of a unified diff with its kind, for its colour.
type diffLine struct {
	Kind string // its classes: add, del, hunk, head (and file, the first line of a file's diff), ""
	Text string
}

func diffLines(diff string) []diffLine {
	var out []diffLine
	for line := range strings.Lines(diff) {
		line = strings.TrimSuffix(line, "\n")
		kind := ""
		switch {
		case strings.HasPrefix(line, "--- a/") || line == "--- /dev/null":
			kind = "head file" // a file's diff starts: set apart from the one before
		case strings.HasPrefix(line, "+++ b/") || line == "+++ /dev/null":
			kind = "head"
		case strings.HasPrefix(line, "@@"):
			kind = "hunk"
		case strings.HasPrefix(line, "+"):
			kind = "add"
		case strings.HasPrefix(line, "-"):
			kind = "del"
		}
		out = append(out, diffLine{Kind: kind, Text: line})
	}
	return out
}

// memoryRuns are the runs of a store that touched the memory name: wrote its file or retired it.
func memoryRuns(runs []runView, name string) []runView {
	var out []runView
	for _, r := range runs {
		if slices.Contains(r.Files, name+".md") || slices.Contains(r.Retired, name) {
			out = append(out, r)
		}
	}
	slices.Reverse(out)
	return out
}

// latest is the newest of the runs' times, zero for none.
func latest(runs []runView) time.Time {
	var t time.Time
	for _, r := range runs {
		if r.Time.After(t) {
			t = r.Time
		}
	}
	return t
}
