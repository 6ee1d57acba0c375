package service

import (
	"path/filepath"
	"slices"
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

func (s *session) unitPath(unit string) string {
	return filepath.Join(s.o.Home, ".config", "systemd", "user", unit)
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
	if v.enable == timerVariant.enable {
		logs = "dreamd-once.service"
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
	} else {
		s.hint("%s was installed and may still run: systemctl --user disable --now %s", v.enable, v.enable)
	}
	for _, unit := range v.files {
		if err := s.remove(s.unitPath(unit)); err != nil {
			return err
		}
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
	if len(s.res.Removed) == removed {
		return nil
	}
	return s.stop(systemctl("daemon-reload")...) // an unreachable manager has nothing to forget
}

func systemctl(args ...string) []string {
	return append([]string{"systemctl", "--user"}, args...)
}
