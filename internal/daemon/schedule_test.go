package daemon

import (
	"strings"
	"testing"
	"time"
)

func TestParseSchedule(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 30, 0, time.UTC)
	tests := []struct {
		spec string
		next time.Time // zero: an error is expected
	}{
		{"@hourly", time.Date(2026, 11, 20, 13, 0, 0, 0, time.UTC)},
		{"@every 2s", now.Add(2 * time.Second)},
		{"@every 10m", now.Add(10 * time.Minute)},
		{"*/15 * * * *", time.Date(2026, 11, 20, 12, 15, 0, 0, time.UTC)},
		{"CRON_TZ=UTC 0 3 * * *", time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC)},
		{"", time.Time{}},
		{"bogus", time.Time{}},
		{"* * * *", time.Time{}},
		{"0 0 0 * * *", time.Time{}}, // seconds field: not a standard spec
		{"61 * * * *", time.Time{}},
		{"@fortnightly", time.Time{}},
		{"@every soon", time.Time{}},
		{"TZ=UTC", time.Time{}}, // panics inside robfig/cron's parser
		{"0 0 30 2 *", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			sched, err := parseSchedule(tt.spec, now)
			if tt.next.IsZero() {
				if err == nil {
					t.Fatalf("parseSchedule(%q) = nil error, want one", tt.spec)
				}
				if !strings.HasPrefix(err.Error(), "schedule: ") {
					t.Errorf("error %q does not name the schedule key", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := sched.Next(now); !got.Equal(tt.next) {
				t.Errorf("Next = %v, want %v", got, tt.next)
			}
		})
	}
}

func TestOverdue(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 30, 0, 0, time.UTC)
	hourly, err := parseSchedule("@hourly", now)
	if err != nil {
		t.Fatal(err)
	}
	every10, err := parseSchedule("@every 10m", now)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		lastCheck time.Time
		sched     interface{ Next(time.Time) time.Time }
		want      bool
	}{
		{"never checked", time.Time{}, hourly, true},
		{"checked this hour", now.Add(-20 * time.Minute), hourly, false},
		{"missed the top of the hour", now.Add(-40 * time.Minute), hourly, true},
		{"slept for days", now.Add(-72 * time.Hour), hourly, true},
		{"every 10m, 9m ago", now.Add(-9 * time.Minute), every10, false},
		{"every 10m, exactly 10m ago", now.Add(-10 * time.Minute), every10, true},
		{"clock went backwards", now.Add(time.Hour), hourly, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := overdue(tt.sched, tt.lastCheck, now); got != tt.want {
				t.Errorf("overdue = %v, want %v", got, tt.want)
			}
		})
	}
}

func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"@hourly", "@every 2s", "*/5 * * * *", "TZ=UTC", "CRON_TZ=UTC 0 3 * * *", "0 0 30 2 *", "1-5/2 1,2 * JAN-MAR MON"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, spec string) {
		sched, err := parseSchedule(spec, now)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "schedule: ") {
				t.Errorf("error %q does not name the schedule key", err)
			}
			return
		}
		if next := sched.Next(now); !next.After(now) {
			t.Errorf("parseSchedule(%q): Next(%v) = %v, not after", spec, now, next)
		}
	})
}
