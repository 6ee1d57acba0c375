package service

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Label is the LaunchAgent's label and the stem of its plist file.
const Label = "dev.dreamd.agent"

// timerInterval is the launchd StartInterval of the --timer variant, in
// seconds: hourly, like dreamd.timer.
const timerInterval = 3600

// restartThrottle is the daemon's ThrottleInterval, in seconds: launchd
// starts it again at most this often. launchd cannot spare particular exit
// statuses the way RestartPreventExitStatus= does, so a daemon that exits 2
// on a bad config is retried at this pace, like RestartSec= under systemd,
// until the config is fixed or the agent is unloaded.
const restartThrottle = 30

func (s *session) plistPath() string {
	return filepath.Join(s.o.Home, "Library", "LaunchAgents", Label+".plist")
}

func (s *session) logPath() string {
	return filepath.Join(s.o.Home, "Library", "Logs", "dreamd", "dreamd.log")
}

func (s *session) domain() string  { return "gui/" + strconv.Itoa(s.o.UID) }
func (s *session) service() string { return s.domain() + "/" + Label }

type plistData struct {
	Label    string
	Args     []string
	Interval int // StartInterval in seconds; 0 means a KeepAlive daemon
	Throttle int // ThrottleInterval of the KeepAlive daemon, in seconds
	LogPath  string
}

func (s *session) installLaunchd() error {
	data := plistData{Label: Label, Args: s.o.args(), Throttle: restartThrottle, LogPath: s.logPath()}
	if s.o.Timer {
		data.Interval = timerInterval
	}
	plist, err := render("launchd/dreamd.plist.tmpl", data)
	if err != nil {
		return err
	}
	// launchd opens the log for append but does not create its directory.
	if err := os.MkdirAll(filepath.Dir(s.logPath()), 0o755); err != nil {
		return err
	}
	if _, err := s.write(s.plistPath(), plist); err != nil {
		return err
	}
	if err := s.startLaunchd(); err != nil {
		return err
	}
	if s.o.NoStart {
		s.hint("start it with: launchctl bootstrap %s %s", s.domain(), s.plistPath())
	}
	s.hint("its log is %s", s.logPath())
	return nil
}

// startLaunchd boots the agent out first when it is loaded, since bootstrap
// refuses a loaded label; that makes a second install a reload.
func (s *session) startLaunchd() error {
	if s.o.NoStart {
		return nil
	}
	if s.probe("launchctl", "print", s.service()) {
		if err := s.stop("launchctl", "bootout", s.service()); err != nil {
			return err
		}
	}
	if err := s.run("launchctl", "bootstrap", s.domain(), s.plistPath()); err != nil {
		return fmt.Errorf("loading the LaunchAgent: %w", err)
	}
	return nil
}

func (s *session) uninstallLaunchd() error {
	if !exists(s.plistPath()) {
		return nil
	}
	if err := s.stop("launchctl", "bootout", s.service()); err != nil {
		return err
	}
	if err := s.remove(s.plistPath()); err != nil {
		return err
	}
	return s.removeLog()
}

// removeLog deletes the agent's log and the directory install created for
// it, unless something else has put files there.
func (s *session) removeLog() error {
	if err := s.remove(s.logPath()); err != nil {
		return err
	}
	err := s.remove(filepath.Dir(s.logPath()))
	if errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
		s.hint("%s is not empty and was left in place", filepath.Dir(s.logPath()))
		return nil
	}
	return err
}

// isLaunchdTimer reports whether the plist at path is the --timer variant.
func isLaunchdTimer(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && bytes.Contains(data, []byte("<key>StartInterval</key>"))
}
