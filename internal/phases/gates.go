package phases

import (
	"fmt"
	"time"
)

// Gates decide whether a store is worth consolidating now. They keep the
// daemon (and `dreamd run --once --gated`) from spending an LLM call on a
// trickle of sessions, and from reading transcripts while an agent is still
// writing them. A pass applies them in its quick check (Options.Gates).
type Gates struct {
	MinHours    float64 // hours since the store's last successful consolidation
	MinSessions int     // new or changed sessions waiting for the store
	IdleMinutes float64 // minutes without a transcript write for the store
}

// Activity is what the gates look at for one store; `dreamd status` shows the
// same verdict a pass would reach.
type Activity struct {
	Store           string
	LastSuccess     time.Time // zero: never consolidated
	PendingSessions int
	LastWrite       time.Time // newest transcript write of the store; zero: unknown
	// Backlog is how many transcript files the store's last applied pass left for the next ones
	// (a first pass over a long history): min_hours does not hold them back.
	Backlog int
}

// ActivityOf is the activity of target t with pending new or changed sessions.
func ActivityOf(t Target, pending int) Activity {
	status, _ := LoadStatus(t.Paths) // unreadable status: treated as never consolidated
	return Activity{Store: t.Paths.Store, LastSuccess: status.LastSuccess, PendingSessions: pending, LastWrite: t.LastWrite(), Backlog: status.Left}
}

// Verdict is the outcome of Gates.Check. When closed, Gate names the gate
// that holds the store back and Until says when it opens by itself; Until is
// zero when only new sessions can open it.
type Verdict struct {
	Open   bool
	Gate   string // "min_hours", "min_sessions", "idle_minutes", or "" when open
	Reason string
	Until  time.Time
}

// Check applies the gates to a store at time now. When several gates are
// closed, min_sessions wins (time alone cannot open it); otherwise the time
// gate that opens last is reported, so Until is when the store is due.
func (g Gates) Check(a Activity, now time.Time) Verdict {
	if need := max(g.MinSessions, 0); a.PendingSessions < need {
		return Verdict{Gate: "min_sessions", Reason: sessionsReason(a.PendingSessions, need)}
	}
	var v Verdict
	if !a.LastSuccess.IsZero() && a.Backlog == 0 {
		until := a.LastSuccess.Add(hours(g.MinHours))
		if now.Before(until) {
			v = Verdict{Gate: "min_hours", Until: until, Reason: fmt.Sprintf(
				"last consolidated %s ago; min_hours allows the next in %s",
				age(now.Sub(a.LastSuccess)), age(until.Sub(now)))}
		}
	}
	if !a.LastWrite.IsZero() {
		until := a.LastWrite.Add(minutes(g.IdleMinutes))
		if now.Before(until) && until.After(v.Until) {
			v = Verdict{Gate: "idle_minutes", Until: until, Reason: fmt.Sprintf(
				"a transcript was written %s ago (an agent is at work); idle_minutes waits %s more",
				age(now.Sub(a.LastWrite)), age(until.Sub(now)))}
		}
	}
	if v.Gate != "" {
		return v
	}
	return Verdict{Open: true, Reason: openReason(a, now)}
}

func sessionsReason(pending, need int) string {
	if pending == 0 {
		return fmt.Sprintf("no new sessions; min_sessions is %d", need)
	}
	return fmt.Sprintf("%d new %s; min_sessions is %d", pending, plural(pending, "session", "sessions"), need)
}

func openReason(a Activity, now time.Time) string {
	last := "never consolidated"
	if !a.LastSuccess.IsZero() {
		last = "last consolidated " + age(now.Sub(a.LastSuccess)) + " ago"
	}
	if a.Backlog > 0 {
		last += fmt.Sprintf("; the last pass left %d for the next ones", a.Backlog)
	}
	return fmt.Sprintf("%d new %s, %s", a.PendingSessions, plural(a.PendingSessions, "session", "sessions"), last)
}

func hours(h float64) time.Duration   { return time.Duration(max(h, 0) * float64(time.Hour)) }
func minutes(m float64) time.Duration { return time.Duration(max(m, 0) * float64(time.Minute)) }

// plural picks the word for n things: one or many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// age renders a duration the way people say it: 45s, 12m, 3h20m, 2d4h.
func age(d time.Duration) string {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return joinUnits(int(d.Hours()), "h", int(d.Minutes())%60, "m")
	default:
		return joinUnits(int(d.Hours())/24, "d", int(d.Hours())%24, "h")
	}
}

func joinUnits(big int, bigUnit string, small int, smallUnit string) string {
	if small == 0 {
		return fmt.Sprintf("%d%s", big, bigUnit)
	}
	return fmt.Sprintf("%d%s%d%s", big, bigUnit, small, smallUnit)
}
