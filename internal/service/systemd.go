package service

import (
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A systemd variant is the set of unit files one kind of install writes and
// the unit that is enabled to run it.
type systemdVariant struct {
	enable string
	files  []string // unit names, also template names under systemd/
}

var (
	daemonVariant = systemdVariant{enable: "dreamd.service", files: []string{"dreamd.service"}}
	timerVariant  = systemdVariant{enable: "dreamd.timer", files: []string{"dreamd-once.service", "dreamd.timer"}}
)

func (v systemdVariant) isTimer() bool { return v.enable == timerVariant.enable }

func (s *session) unitPath(unit string) string {
	return filepath.Join(s.o.Home, ".config", "systemd", "user", unit)
}

// stampPath is where the user manager keeps the last elapse of
// dreamd.timer for Persistent=true: $XDG_DATA_HOME/systemd/timers/.
// systemd writes it, and leaves it behind when the timer goes away.
func (s *session) stampPath() string {
	return filepath.Join(s.o.DataHome, "systemd", "timers", "stamp-"+timerVariant.enable)
}

func (s *session) installSystemd() error {
	want, other := daemonVariant, timerVariant
	if s.o.Timer {
		want, other = timerVariant, daemonVariant
	}
	// The timer replaces the daemon and vice versa: never leave both running.
	if err := s.removeVariant(other, !s.o.NoStart); err != nil {
		return err
	}
	command := systemdCommand(s.o.args())
	changed := false
	for _, unit := range want.files {
		data, err := render("systemd/"+unit, struct{ Command string }{command})
		if err != nil {
			return err
		}
		c, err := s.write(s.unitPath(unit), data)
		if err != nil {
			return err
		}
		changed = changed || c
	}
	if err := s.startSystemd(want, changed); err != nil {
		return err
	}
	s.hintsSystemd(want)
	return nil
}

// startSystemd loads the units and starts the service; a reinstall that
// changed a unit restarts what is already running so the change applies.
func (s *session) startSystemd(v systemdVariant, changed bool) error {
	if s.o.NoStart {
		return nil
	}
	if err := s.run(systemctl("daemon-reload")...); err != nil {
		return err
	}
	if err := s.run(systemctl("enable", "--now", v.enable)...); err != nil {
		return err
	}
	if changed {
		return s.run(systemctl("try-restart", v.enable)...)
	}
	return nil
}

func (s *session) hintsSystemd(v systemdVariant) {
	if s.o.NoStart {
		s.hint("start it with: systemctl --user daemon-reload && systemctl --user enable --now %s", v.enable)
	}
	logs := v.enable
	if v.isTimer() {
		// The passes run as dreamd-once.service: `systemctl --user status dreamd` finds no unit.
		logs = "dreamd-once.service"
		s.hint("see the timer and the last pass with: systemctl --user status dreamd.timer dreamd-once.service")
	}
	s.hint("follow its log with: journalctl --user -u %s -f", logs)
	s.hint("to keep dreamd running while you are logged out: loginctl enable-linger $USER")
}

// removeVariant disables (when stop is set) and removes a variant's units
// if any of them is installed.
func (s *session) removeVariant(v systemdVariant, stop bool) error {
	if !slices.ContainsFunc(v.files, func(unit string) bool { return exists(s.unitPath(unit)) }) {
		return nil
	}
	if stop {
		if err := s.stop(systemctl("disable", "--now", v.enable)...); err != nil {
			return err
		}
		// A unit that failed (a bad config stops the daemon for good) stays
		// listed as failed after its file is gone, until this.
		resetFailed := append([]string{"reset-failed"}, v.files...)
		if err := s.stop(systemctl(resetFailed...)...); err != nil {
			return err
		}
	} else {
		s.hint("%s was installed and may still run: systemctl --user disable --now %s", v.enable, v.enable)
	}
	for _, unit := range v.files {
		if err := s.remove(s.unitPath(unit)); err != nil {
			return err
		}
	}
	if v.isTimer() {
		return s.remove(s.stampPath())
	}
	return nil
}

func (s *session) uninstallSystemd() error {
	removed := len(s.res.Removed)
	for _, v := range []systemdVariant{daemonVariant, timerVariant} {
		if err := s.removeVariant(v, true); err != nil {
			return err
		}
	}
	// The stamp outlives units removed by hand; it is dreamd's all the same.
	if err := s.remove(s.stampPath()); err != nil {
		return err
	}
	if len(s.res.Removed) == removed {
		return nil
	}
	return s.stop(systemctl("daemon-reload")...) // an unreachable manager has nothing to forget
}

func systemctl(args ...string) []string {
	return append([]string{"systemctl", "--user"}, args...)
}

// NextRun asks the user manager when dreamd.timer elapses next. ok is false
// when it cannot tell: the launchd target (StartInterval has no next time to
// ask for), no systemctl or no user manager, or a timer that is not active.
func NextRun(o Options) (next time.Time, ok bool) {
	o, err := o.resolve(false)
	if err != nil || o.Target != "systemd" {
		return time.Time{}, false
	}
	args := systemctl("show", timerVariant.enable, "-p", "NextElapseUSecRealtime", "--value")
	out, err := o.Run(args[0], args[1:]...)
	if err != nil {
		return time.Time{}, false
	}
	return parseSystemdTime(string(out), time.Local)
}

// parseSystemdTime reads a timestamp as systemctl show prints it: "Day
// YYYY-MM-DD HH:MM:SS TZ". systemctl runs beside us, in our time zone, so a
// zone other than UTC is the local one; its abbreviation alone would be
// ambiguous anyway.
func parseSystemdTime(s string, local *time.Location) (time.Time, bool) {
	fields := strings.Fields(s)
	for i := 0; i+1 < len(fields); i++ {
		loc := local
		if i+2 < len(fields) && fields[i+2] == "UTC" {
			loc = time.UTC
		}
		if t, err := time.ParseInLocation("2006-01-02 15:04:05.999999", fields[i]+" "+fields[i+1], loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false // "", "n/a": no elapse scheduled
}
