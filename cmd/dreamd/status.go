package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/daemon"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/report"
	"github.com/dreamd/dreamd/internal/service"
	"github.com/dreamd/dreamd/internal/store"
)

type statusOptions struct {
	*globalOptions
}

func newStatusCmd(g *globalOptions) *cobra.Command {
	o := &statusOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Per store: memories, index vs caps, last run, pending sessions, gates, lock, lost transcripts",
		Example: `  dreamd status
  dreamd status --project ~/src/shop
  dreamd status --format json | jq '.stores[] | {store, memories, state_bytes}'`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return runStatus(o) },
	}
	jsonAlias(cmd, g)
	projectFlag(cmd, g)
	return cmd
}

type indexStatus struct {
	Lines       int  `json:"lines"`
	Bytes       int  `json:"bytes"`
	LongestLine int  `json:"longest_line"`
	MaxLines    int  `json:"max_lines"`
	MaxBytes    int  `json:"max_bytes"`
	LineMax     int  `json:"line_max"`
	WithinCaps  bool `json:"within_caps"`
}

type gateStatus struct {
	Open   bool       `json:"open"`
	Gate   string     `json:"gate,omitempty"`
	Reason string     `json:"reason"`
	Until  *time.Time `json:"until,omitempty"`
}

type storeStatus struct {
	Store           string        `json:"store"`
	Scope           memory.Scope  `json:"scope"` // project, user or team
	Memories        int           `json:"memories"`
	Index           indexStatus   `json:"index"`
	LastRun         *time.Time    `json:"last_run,omitempty"`
	LastResult      string        `json:"last_result,omitempty"`
	LastSuccess     *time.Time    `json:"last_success,omitempty"`
	LastApplied     string        `json:"last_applied,omitempty"`
	PendingSessions int           `json:"pending_sessions"`
	PendingBytes    int64         `json:"pending_bytes"`
	PendingPlans    []string      `json:"pending_plans,omitempty"`
	Gates           gateStatus    `json:"gates"`
	Lock            *store.Holder `json:"lock,omitempty"`
	Unclean         []string      `json:"unclean"`     // files with NUL or control bytes, read sanitised
	Verbatim        []string      `json:"verbatim"`    // files whose front matter dreamd cannot write back: left as written
	Outside         []string      `json:"outside"`     // links to files outside the store, not read
	StateBytes      int64         `json:"state_bytes"` // dreamd's own data for the store (runs, archive, cursors)
	Links           []linkStatus  `json:"links"`       // agents' instruction files carrying this store
	// Lost are transcripts deleted by their agent before a pass read them to their end.
	Lost []string `json:"lost"`
	// Followed sums up how the memories are followed: re-taught since learnt, not followed, stale.
	Followed followed `json:"followed"`

	planAdvice [][2]string // per pending plan, what the text says of it
}

type linkStatus struct {
	Agent string   `json:"agent"`
	Files []string `json:"files"`
	Todo  string   `json:"todo,omitempty"`
}

type daemonStatus struct {
	Running   bool       `json:"running"`
	Mode      string     `json:"mode"` // what starts passes: daemon (running or installed), timer or none
	PID       int        `json:"pid,omitempty"`
	Started   *time.Time `json:"started,omitempty"`
	LastCheck *time.Time `json:"last_check,omitempty"`
	NextCheck *time.Time `json:"next_check,omitempty"`
	NextRun   *time.Time `json:"next_run,omitempty"` // timer mode, when the service manager knows it
	LastError string     `json:"last_error,omitempty"`
}

// Modes of daemonStatus.
const (
	modeDaemon = "daemon"
	modeTimer  = "timer"
	modeNone   = "none"
)

type statusReport struct {
	Schedule string        `json:"schedule"`
	Daemon   daemonStatus  `json:"daemon"`
	Stores   []storeStatus `json:"stores"`
}

func runStatus(o *statusOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	recoverStores(o.globalOptions, cfg)
	env := routingEnv(cfg)
	targets, _, err := phases.Discover(env)
	if err != nil {
		return err
	}
	rep := statusReport{Schedule: cfg.Schedule, Daemon: readDaemon(cfg).withService(service.Options{})}
	for _, t := range targets {
		if only != "" && t.Paths.Store != only {
			continue
		}
		st, err := statusOf(t, cfg, time.Now())
		if err != nil {
			return err
		}
		st.Scope = env.ScopeOf(st.Store)
		st.planAdvice = o.planAdvice(t.Paths, st.PendingPlans)
		rep.Stores = append(rep.Stores, st)
	}
	return o.print(rep)
}

func statusOf(t phases.Target, cfg *config.Config, now time.Time) (storeStatus, error) {
	s, err := store.Load(t.Paths.Store)
	if err != nil {
		return storeStatus{}, err
	}
	cursors, err := t.ReadCursors()
	if err != nil {
		return storeStatus{}, err
	}
	pending, err := phases.Pending(t, cursors)
	if err != nil {
		return storeStatus{}, err
	}
	last, err := phases.LoadStatus(t.Paths)
	if err != nil {
		return storeStatus{}, err
	}
	idx := memory.StatIndex(s.Index)
	st := storeStatus{
		Store:    t.Paths.Store,
		Memories: len(s.Memories),
		Index: indexStatus{Lines: idx.Lines, Bytes: idx.Bytes, LongestLine: idx.LongestLine,
			MaxLines: cfg.Limits.IndexMaxLines, MaxBytes: cfg.Limits.IndexMaxBytes, LineMax: cfg.Limits.IndexLineMax},
		LastRun:         timePtr(last.LastRun),
		LastResult:      last.LastResult,
		LastSuccess:     timePtr(last.LastSuccess),
		LastApplied:     last.LastApplied,
		PendingSessions: len(pending),
		PendingPlans:    phases.PendingPlans(t.Paths),
		Unclean:         append([]string{}, s.Unclean()...),
		Verbatim:        append([]string{}, s.Verbatim()...),
		Outside:         append([]string{}, s.Outside...),
		StateBytes:      store.StateSize(t.Paths),
		Links:           linksOf(cfg, t.Paths.Store),
		Lost:            append([]string{}, phases.Lost(t, cursors)...),
		Followed:        followedOf(t.Paths, s),
	}
	st.Index.WithinCaps = cfg.Limits.IndexFits(idx)
	for _, p := range pending {
		st.PendingBytes += p.Bytes
	}
	v := gatesOf(cfg).Check(phases.Activity{Store: t.Paths.Store, LastSuccess: last.LastSuccess, PendingSessions: len(pending), LastWrite: t.LastWrite()}, now)
	st.Gates = gateStatus{Open: v.Open, Gate: v.Gate, Reason: v.Reason, Until: timePtr(v.Until)}
	if h, busy := store.Inspect(t.Paths); busy {
		st.Lock = &h
	}
	return st, nil
}

func readDaemon(cfg *config.Config) daemonStatus {
	s, err := daemon.ReadState(filepath.Join(cfg.StateDir, "daemon.json"))
	if err != nil || s.PID == 0 {
		return daemonStatus{}
	}
	d := daemonStatus{Running: s.Running && store.ProcessAlive(s.PID), PID: s.PID, Started: timePtr(s.Started), LastCheck: timePtr(s.LastCheck), LastError: s.LastError}
	if d.Running {
		d.NextCheck = timePtr(s.NextCheck)
	}
	return d
}

// withService adds what starts passes when no daemon runs: an installed daemon (stopped, or
// failed), or an installed timer, whose next run the service manager is asked for.
func (d daemonStatus) withService(o service.Options) daemonStatus {
	files, timer, err := service.Installed(o)
	installed := err == nil && len(files) > 0
	switch {
	case d.Running:
		d.Mode = modeDaemon
	case installed && timer:
		d.Mode = modeTimer
		if next, ok := service.NextRun(o); ok {
			d.NextRun = &next
		}
	case installed:
		d.Mode = modeDaemon
	default:
		d.Mode = modeNone
	}
	return d
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func (rep statusReport) render(w io.Writer, markdown bool) error {
	daemon := section{title: "daemon"}
	daemon.lines = append(daemon.lines, [2]string{"state", rep.Daemon.state()})
	schedule := rep.Schedule
	if rep.Daemon.Mode == modeTimer {
		schedule += " (the daemon's; the timer has its own)"
	}
	daemon.lines = append(daemon.lines, [2]string{"schedule", schedule})
	if rep.Daemon.LastError != "" {
		daemon.lines = append(daemon.lines, [2]string{"last error", rep.Daemon.LastError})
	}
	sections := []section{daemon}
	if len(rep.Stores) == 0 {
		sections = append(sections, section{title: "stores", lines: [][2]string{{"none yet", "no transcripts found in the configured sources; see `dreamd sessions`"}}})
	}
	for _, s := range rep.Stores {
		sections = append(sections, s.section())
	}
	return renderSections(w, markdown, sections)
}

func (d daemonStatus) state() string {
	switch {
	case d.Running:
		return fmt.Sprintf("running (pid %d), next check %s", d.PID, when(d.NextCheck))
	case d.Mode == modeTimer:
		next := "unknown"
		if d.NextRun != nil {
			next = when(d.NextRun)
		}
		return "timer mode: the installed timer starts `dreamd run --once --gated --brief` hourly (dreamd-once.service); next run " + next
	case d.Mode == modeDaemon:
		return "installed but not running (`dreamd doctor` says how to start it again)"
	default:
		return "not running (start it with `dreamd run` or `dreamd install`)"
	}
}

func (s storeStatus) section() section {
	l := [][2]string{
		{"memories", strconv.Itoa(s.Memories)},
		{"followed", s.Followed.line()},
		{"index", fmt.Sprintf("%d/%d lines, %d/%d bytes, longest line %d/%d%s", s.Index.Lines, s.Index.MaxLines, s.Index.Bytes, s.Index.MaxBytes, s.Index.LongestLine, s.Index.LineMax, caps(s.Index.WithinCaps))},
		{"last run", strings.TrimSpace(when(s.LastRun) + " " + s.LastResult)},
		{"last success", strings.TrimSpace(when(s.LastSuccess) + " " + s.LastApplied)},
		{"pending", fmt.Sprintf("%d sessions, %s", s.PendingSessions, report.ByteSize(s.PendingBytes))},
		{"state", report.ByteSize(s.StateBytes) + " (runs kept for rollback, archive, cursors; `dreamd gc` prunes runs)"},
	}
	l = append(l, s.planAdvice...)
	gate := "open: " + s.Gates.Reason
	if !s.Gates.Open {
		gate = "closed (" + s.Gates.Gate + "): " + s.Gates.Reason
	}
	l = append(l, [2]string{"gates", gate})
	for _, k := range s.Links {
		l = append(l, [2]string{"linked", k.Agent + ": " + strings.Join(k.Files, ", ")})
	}
	if len(s.Outside) > 0 {
		l = append(l, [2]string{"not read", strings.Join(s.Outside, ", ") + " (links to files outside the store)"})
	}
	if len(s.Unclean) > 0 {
		l = append(l, [2]string{"control bytes", strings.Join(s.Unclean, ", ") + " (read without them, left as they are)"})
	}
	if len(s.Verbatim) > 0 {
		l = append(l, [2]string{"kept as written", strings.Join(s.Verbatim, ", ") + " (front matter dreamd cannot write back: never rewritten or retired)"})
	}
	if len(s.Lost) > 0 {
		l = append(l, [2]string{"lost", fmt.Sprintf("%d transcripts deleted by their agent before they were read to the end: %s "+
			"(Gemini CLI's session cleanup; the daemon keeps each session as it appears, so run `dreamd run` or `dreamd install`)", len(s.Lost), strings.Join(s.Lost, ", "))})
	}
	lock := "free"
	if s.Lock != nil {
		lock = fmt.Sprintf("held by pid %d (%s) since %s", s.Lock.PID, s.Lock.Who, s.Lock.Since.Format(time.RFC3339))
	}
	l = append(l, [2]string{"lock", lock})
	title := "store " + s.Store
	if s.Scope != memory.ScopeProject {
		title = fmt.Sprintf("%s store %s", s.Scope, s.Store)
	}
	return section{title: title, lines: l}
}

func caps(ok bool) string {
	if ok {
		return " (within caps)"
	}
	return " (OVER CAPS: the next pass prunes it)"
}

func when(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// planAdvice says of each pending plan what it is and the commands that review, apply or drop it,
// by its run id (the path is in the JSON): a plan a guard refused needs --force, one left for
// review not.
func (o *statusOptions) planAdvice(paths store.Paths, plans []string) [][2]string {
	var parked *phases.ParkedPlan
	if st, err := phases.LoadStatus(paths); err == nil {
		parked = st.Parked
	}
	var out [][2]string
	for _, p := range plans {
		run := strings.TrimSuffix(filepath.Base(p), ".json")
		if parked != nil && parked.Plan == p {
			out = append(out, [2]string{"refused plan", fmt.Sprintf("%s (%s): `%s` applies it anyway, `%s` drops it",
				run, parked.Reason, o.hint("apply", run, "--force"), o.hint("discard", run))})
			continue
		}
		out = append(out, [2]string{"plan to review", fmt.Sprintf("%s: `%s` goes through it operation by operation, `%s` applies it whole, `%s` drops it",
			run, o.hint("review", run), o.hint("apply", run), o.hint("discard", run))})
	}
	return out
}
