package service

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Label is the LaunchAgent's label and the stem of its plist file.
const Label = "dev.dreamd.agent"

// timerInterval is the launchd StartInterval of the --timer variant, in
// seconds: hourly, like dreamd.timer.
const timerInterval = 3600

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
	LogPath  string
}

func (s *session) installLaunchd() error {
	data := plistData{Label: Label, Args: s.o.args(), LogPath: s.logPath()}
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
	s.hint("its log stays in %s", filepath.Dir(s.logPath()))
	return nil
}
