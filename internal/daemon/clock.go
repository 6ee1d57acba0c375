package daemon

import "time"

// Clock tells the wall time. The scheduler's timers come from package time
// (robfig/cron uses it directly), so tests run the daemon inside a
// testing/synctest bubble; a Clock lets them also move the wall clock on its
// own, as a laptop does when it wakes from sleep.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// wall strips the monotonic reading: the monotonic clock stops while a
// machine sleeps, and comparisons must see the time that really passed.
func wall(t time.Time) time.Time { return t.Round(0) }
