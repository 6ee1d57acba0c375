package daemon

import (
	"fmt"
	"time"

	"github.com/robfig/cron/v3"
)

// parseSchedule accepts standard 5-field cron specs and descriptors
// (@hourly, @every 10s, …). Errors name the config key.
func parseSchedule(spec string, now time.Time) (sched cron.Schedule, err error) {
	// cron's parser panics on some malformed input ("TZ=UTC" without a spec).
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("schedule: %q is not a cron spec: %v", spec, r)
		}
	}()
	sched, err = cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("schedule: %q is not a cron spec or descriptor: %w", spec, err)
	}
	if sched.Next(now).IsZero() {
		return nil, fmt.Errorf("schedule: %q never fires", spec)
	}
	return sched, nil
}

// overdue reports whether a check is owed at now: never checked, or the
// schedule's next time after the last check has already passed.
func overdue(sched cron.Schedule, lastCheck, now time.Time) bool {
	if lastCheck.IsZero() {
		return true
	}
	return !wall(sched.Next(wall(lastCheck))).After(wall(now))
}
