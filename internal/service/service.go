// Package service installs dreamd as a per-user service: a systemd user unit
// (or a timer) on Linux, a LaunchAgent on macOS. Commands are run through an
// injected function, so tests record them instead of touching the system.
package service

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options describe one install or uninstall.
type Options struct {
	Target     string // systemd | launchd; "" picks by runtime.GOOS
	Timer      bool   // hourly `run --once --gated` instead of the daemon
	NoStart    bool   // write the files, run no command (Install only)
	Binary     string // absolute path of the dreamd binary (Install only)
	ConfigFile string // optional; passed as --config, made absolute
	Home       string // "" means os.UserHomeDir
	DataHome   string // where systemd keeps timer stamps; "" means $XDG_DATA_HOME, else ~/.local/share
	UID        int    // launchd's gui/<uid> domain

	// Run executes a command and returns its combined output; nil means
	// os/exec. Tests inject a recorder.
	Run func(name string, args ...string) ([]byte, error)
	// Out, when set, gets each command as it runs ("$ systemctl …") and
	// its output; files and hints are in the Result for the caller to show.
	Out io.Writer
}

// Result lists what was done, in order, and what the user should know.
type Result struct {
	Written  []string   `json:"written,omitempty"`
	Removed  []string   `json:"removed,omitempty"`
	Commands [][]string `json:"commands,omitempty"`
	Hints    []string   `json:"hints,omitempty"`
}

// Install writes the service files and, unless NoStart, loads and starts
// the service. Installing again rewrites the same files and reloads.
func Install(o Options) (Result, error) {
	o, err := o.resolve(true)
	if err != nil {
		return Result{}, err
	}
	s := &session{o: o}
	if o.Target == "systemd" {
		err = s.installSystemd()
	} else {
		err = s.installLaunchd()
	}
	return s.finish(err)
}

// Uninstall stops the service and removes every file Install writes, for
// both the daemon and the timer variant, and what the service manager kept
// for it: the timer's stamp, a failed unit's state, the LaunchAgent's log.
// Nothing installed is not an error.
func Uninstall(o Options) (Result, error) {
	o, err := o.resolve(false)
	if err != nil {
		return Result{}, err
	}
	s := &session{o: o}
	if o.Target == "systemd" {
		err = s.uninstallSystemd()
	} else {
		err = s.uninstallLaunchd()
	}
	return s.finish(err)
}

// resolve fills in defaults and rejects what a unit file or plist cannot
// carry safely.
func (o Options) resolve(install bool) (Options, error) {
	var err error
	if o.Target, err = target(o.Target, runtime.GOOS); err != nil {
		return o, err
	}
	if o.Home == "" {
		if o.Home, err = os.UserHomeDir(); err != nil {
			return o, fmt.Errorf("install: %w", err)
		}
	}
	if o.DataHome == "" {
		o.DataHome = dataHome(o.Home)
	}
	if o.Run == nil {
		o.Run = execRun
	}
	if install {
		if !filepath.IsAbs(o.Binary) {
			return o, fmt.Errorf("install: binary path %q is not absolute", o.Binary)
		}
		o.Binary = filepath.Clean(o.Binary)
	}
	if o.ConfigFile != "" {
		if o.ConfigFile, err = filepath.Abs(o.ConfigFile); err != nil {
			return o, fmt.Errorf("--config: %w", err)
		}
	}
	for _, p := range []string{o.Binary, o.ConfigFile, o.Home} {
		if !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl) {
			return o, fmt.Errorf("install: path %q is not valid UTF-8 or contains a control character", p)
		}
	}
	return o, nil
}

// dataHome is $XDG_DATA_HOME as systemd reads it: a relative value is
// ignored, as the XDG spec says.
func dataHome(home string) string {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(home, ".local", "share")
}

func target(t, goos string) (string, error) {
	switch {
	case t == "systemd" || t == "launchd":
		return t, nil
	case t != "":
		return "", fmt.Errorf("--target: %q is not systemd or launchd", t)
	case goos == "linux":
		return "systemd", nil
	case goos == "darwin":
		return "launchd", nil
	default:
		return "", fmt.Errorf("--target: no user service manager known on %s; pass systemd or launchd", goos)
	}
}

// args is the dreamd command line the service runs.
func (o Options) args() []string {
	args := []string{o.Binary, "run"}
	if o.Timer {
		// --brief: the journal gets a line per store that did something, not every hour's report.
		args = append(args, "--once", "--gated", "--brief")
	}
	if o.ConfigFile != "" {
		args = append(args, "--config", o.ConfigFile)
	}
	return args
}

func execRun(name string, args ...string) ([]byte, error) {
	return exec.Command(name, args...).CombinedOutput()
}

// notLoaded reports whether a failed stop command failed only because
// there was nothing to stop, in the words of systemctl and launchctl. A
// service manager that cannot be reached at all (no user bus, no launchctl)
// runs nothing of ours either.
func notLoaded(out []byte, err error) bool {
	text := strings.ToLower(string(out) + "\n" + err.Error())
	for _, s := range []string{"not loaded", "does not exist", "not found", "no such process", "could not find", "failed to connect to bus"} {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// Installed lists the service files of dreamd that exist for the target ("" picks by the OS), and
// whether they are the timer variant.
func Installed(o Options) (files []string, timer bool, err error) {
	if o, err = o.resolve(false); err != nil {
		return nil, false, err
	}
	s := &session{o: o}
	if o.Target == "launchd" {
		if exists(s.plistPath()) {
			files = append(files, s.plistPath())
		}
		return files, isLaunchdTimer(s.plistPath()), nil
	}
	for _, v := range []systemdVariant{daemonVariant, timerVariant} {
		for _, unit := range v.files {
			if p := s.unitPath(unit); exists(p) {
				files = append(files, p)
				timer = timer || v.isTimer()
			}
		}
	}
	return files, timer, nil
}

// Reachable reports why the service manager dreamd would be installed under cannot be reached
// (nil when it can): a systemd user manager needs a login session or lingering, which an SSH
// session into a container or a cron job often has not. Advice to run `systemctl --user …` is
// useless then.
func Reachable(o Options) error {
	o, err := o.resolve(false)
	if err != nil || o.Target != "systemd" {
		return err
	}
	args := systemctl("show-environment")
	out, err := o.Run(args[0], args[1:]...)
	if err != nil {
		return &commandError{args: args, out: out, err: err}
	}
	return nil
}
