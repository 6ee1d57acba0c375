package service

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/testutil/golden"
)

// fakeSystem stands in for systemctl and launchctl: it records every
// command and keeps just enough state for launchctl print/bootout.
type fakeSystem struct {
	calls  [][]string
	loaded bool                               // the LaunchAgent is loaded
	fail   func(cmd []string) ([]byte, error) // optional injected failure
}

func (f *fakeSystem) run(name string, args ...string) ([]byte, error) {
	cmd := append([]string{name}, args...)
	f.calls = append(f.calls, cmd)
	if f.fail != nil {
		if out, err := f.fail(cmd); err != nil {
			return out, err
		}
	}
	if name == "systemctl" && slices.Contains(args, "enable") {
		return []byte("Created symlink " + args[len(args)-1] + ".\n"), nil
	}
	if name != "launchctl" {
		return nil, nil
	}
	switch args[0] {
	case "print":
		if !f.loaded {
			return []byte("Could not find service \"dev.dreamd.agent\" in domain for port\n"), errors.New("exit status 113")
		}
		return []byte("gui/501/dev.dreamd.agent = {\n\tactive count = 1\n}\n"), nil
	case "bootout":
		if !f.loaded {
			return []byte("Boot-out failed: 3: No such process\n"), errors.New("exit status 3")
		}
		f.loaded = false
	case "bootstrap":
		f.loaded = true
	}
	return nil, nil
}

func (f *fakeSystem) commands() []string {
	var lines []string
	for _, c := range f.calls {
		lines = append(lines, strings.Join(c, " "))
	}
	return lines
}

// options for an install into a fresh temporary home.
func options(t *testing.T, target string, timer bool) (Options, *fakeSystem) {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", "") // timer stamps under the temporary home
	f := &fakeSystem{}
	return Options{Target: target, Timer: timer, Binary: "/usr/local/bin/dreamd",
		Home: t.TempDir(), UID: 501, Run: f.run}, f
}

func TestInstallGolden(t *testing.T) {
	tests := []struct {
		name       string
		target     string
		timer      bool
		binary     string
		configFile string
	}{
		{"systemd", "systemd", false, "/usr/local/bin/dreamd", ""},
		{"systemd-timer", "systemd", true, "/usr/local/bin/dreamd", "/etc/dreamd/config.yaml"},
		{"systemd-quoting", "systemd", false, "/opt/My Tools/dreamd", `/srv/$cfg/50% "x".yaml`},
		{"launchd", "launchd", false, "/opt/R&D <tools>/dreamd", "/etc/dreamd/config.yaml"},
		{"launchd-timer", "launchd", true, "/usr/local/bin/dreamd", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _ := options(t, tt.target, tt.timer)
			o.Binary, o.ConfigFile = tt.binary, tt.configFile
			var out bytes.Buffer
			o.Out = &out
			res, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			// Home is a temporary directory; goldens show it as /home/ana.
			anon := func(s string) string { return strings.ReplaceAll(s, o.Home, "/home/ana") }
			for _, path := range res.Written {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				checkGolden(t, filepath.Join(tt.name, filepath.Base(path)), anon(string(data)))
			}
			checkGolden(t, filepath.Join(tt.name, "out.txt"), anon(out.String()+describe(res)))
		})
	}
}

// describe renders a Result the way a user would read it.
func describe(res Result) string {
	var b strings.Builder
	b.WriteString("--- result\n")
	for _, p := range res.Written {
		fmt.Fprintf(&b, "wrote %s\n", p)
	}
	for _, p := range res.Removed {
		fmt.Fprintf(&b, "removed %s\n", p)
	}
	for _, c := range res.Commands {
		fmt.Fprintf(&b, "ran %s\n", strings.Join(c, " "))
	}
	for _, h := range res.Hints {
		fmt.Fprintf(&b, "hint: %s\n", h)
	}
	return b.String()
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

func TestInstallCommands(t *testing.T) {
	tests := []struct {
		target string
		timer  bool
		want   []string
	}{
		{"systemd", false, []string{
			"systemctl --user daemon-reload",
			"systemctl --user enable --now dreamd.service",
		}},
		{"systemd", true, []string{
			"systemctl --user daemon-reload",
			"systemctl --user enable --now dreamd.timer",
		}},
		{"launchd", false, []string{
			"launchctl print gui/501/dev.dreamd.agent",
			"launchctl bootstrap gui/501 $HOME/Library/LaunchAgents/dev.dreamd.agent.plist",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			o, f := options(t, tt.target, tt.timer)
			res, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(strings.Join(f.commands(), "\n"), o.Home, "$HOME")
			if want := strings.Join(tt.want, "\n"); got != want {
				t.Errorf("commands:\n%s\nwant:\n%s", got, want)
			}
			if len(res.Commands) != len(f.calls) {
				t.Errorf("Result.Commands has %d entries, %d were run", len(res.Commands), len(f.calls))
			}
		})
	}
}

func TestInstallNoStart(t *testing.T) {
	for _, target := range []string{"systemd", "launchd"} {
		t.Run(target, func(t *testing.T) {
			o, f := options(t, target, false)
			o.NoStart = true
			res, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.calls) != 0 || len(res.Commands) != 0 {
				t.Errorf("--no-start ran %v", f.calls)
			}
			if len(res.Written) == 0 || !exists(res.Written[0]) {
				t.Errorf("--no-start wrote %v", res.Written)
			}
			if !slices.ContainsFunc(res.Hints, func(h string) bool { return strings.HasPrefix(h, "start it with") }) {
				t.Errorf("no hint on starting it: %q", res.Hints)
			}
		})
	}
}

func TestInstallTwiceIsIdempotent(t *testing.T) {
	for _, target := range []string{"systemd", "launchd"} {
		for _, timer := range []bool{false, true} {
			t.Run(variantName(target, timer), func(t *testing.T) {
				o, f := options(t, target, timer)
				first, err := Install(o)
				if err != nil {
					t.Fatal(err)
				}
				before := readAll(t, first.Written)
				f.calls = nil
				second, err := Install(o)
				if err != nil {
					t.Fatalf("second install: %v", err)
				}
				if !slices.Equal(first.Written, second.Written) || len(second.Removed) != 0 {
					t.Errorf("second install wrote %v removed %v, first wrote %v", second.Written, second.Removed, first.Written)
				}
				if after := readAll(t, second.Written); !slices.Equal(before, after) {
					t.Error("second install changed the files")
				}
				cmds := strings.Join(f.commands(), "\n")
				if strings.Contains(cmds, "try-restart") {
					t.Errorf("unchanged units were restarted:\n%s", cmds)
				}
				if target == "launchd" && !strings.Contains(cmds, "launchctl bootout gui/501/dev.dreamd.agent") {
					t.Errorf("a loaded agent was not booted out first:\n%s", cmds)
				}
			})
		}
	}
}

func TestReinstallRestartsChangedUnit(t *testing.T) {
	o, f := options(t, "systemd", false)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	o.Binary = "/opt/dreamd/bin/dreamd"
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	if got := f.commands(); got[len(got)-1] != "systemctl --user try-restart dreamd.service" {
		t.Errorf("commands after an upgrade: %q", got)
	}
}

func TestSwitchingVariantsReplacesTheOther(t *testing.T) {
	o, f := options(t, "systemd", false)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	o.Timer = true
	f.calls = nil
	res, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{o: o}
	if !slices.Equal(res.Removed, []string{s.unitPath("dreamd.service")}) || exists(s.unitPath("dreamd.service")) {
		t.Errorf("the daemon unit was not removed: %v", res.Removed)
	}
	if got := f.commands(); got[0] != "systemctl --user disable --now dreamd.service" {
		t.Errorf("the daemon was not stopped first: %q", got)
	}

	o.Timer = false
	res, err = Install(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Removed) != 2 || exists(s.unitPath("dreamd.timer")) || exists(s.unitPath("dreamd-once.service")) {
		t.Errorf("the timer units were not removed: %v", res.Removed)
	}
}

func TestUninstallRemovesWhatInstallWrote(t *testing.T) {
	for _, target := range []string{"systemd", "launchd"} {
		for _, timer := range []bool{false, true} {
			t.Run(variantName(target, timer), func(t *testing.T) {
				o, f := options(t, target, timer)
				installed, err := Install(o)
				if err != nil {
					t.Fatal(err)
				}
				f.calls = nil
				res, err := Uninstall(o)
				if err != nil {
					t.Fatal(err)
				}
				want := installed.Written
				if target == "launchd" { // and the log directory install made
					want = append(want, filepath.Dir((&session{o: o}).logPath()))
				}
				if !slices.Equal(sorted(res.Removed), sorted(want)) {
					t.Errorf("removed %v, want %v", res.Removed, want)
				}
				for _, path := range installed.Written {
					if exists(path) {
						t.Errorf("%s is still there", path)
					}
				}
				stop := map[string]string{
					"systemd":       "systemctl --user disable --now dreamd.service",
					"systemd-timer": "systemctl --user disable --now dreamd.timer",
					"launchd":       "launchctl bootout gui/501/dev.dreamd.agent",
					"launchd-timer": "launchctl bootout gui/501/dev.dreamd.agent",
				}[variantName(target, timer)]
				if got := f.commands(); len(got) == 0 || got[0] != stop {
					t.Errorf("commands %q, want %q first", got, stop)
				}

				f.calls = nil
				again, err := Uninstall(o)
				if err != nil || len(again.Removed) != 0 || len(f.calls) != 0 {
					t.Errorf("second uninstall: %+v, %v, ran %v", again, err, f.calls)
				}
			})
		}
	}
}

func TestUninstallToleratesNotLoaded(t *testing.T) {
	tests := []struct {
		target string
		out    string
	}{
		{"systemd", "Failed to disable unit: Unit dreamd.service not loaded.\n"},
		{"launchd", "Boot-out failed: 113: Could not find specified service\n"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			o, f := options(t, tt.target, false)
			o.NoStart = true
			if _, err := Install(o); err != nil {
				t.Fatal(err)
			}
			f.fail = func(cmd []string) ([]byte, error) {
				if slices.Contains(cmd, "bootout") || slices.Contains(cmd, "disable") {
					return []byte(tt.out), errors.New("exit status 1")
				}
				return nil, nil
			}
			o.NoStart = false
			res, err := Uninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Removed) == 0 || exists(res.Removed[0]) {
				t.Errorf("removed %v", res.Removed)
			}
		})
	}
}

func TestUninstallStopsOnRealFailure(t *testing.T) {
	o, f := options(t, "systemd", false)
	installed, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	f.fail = func([]string) ([]byte, error) {
		return []byte("Failed to disable unit: Access denied\n"), errors.New("exit status 1")
	}
	_, err = Uninstall(o)
	if err == nil || !strings.Contains(err.Error(), "Access denied") || !strings.Contains(err.Error(), "disable --now") {
		t.Fatalf("Uninstall = %v, want the command and its output", err)
	}
	if !exists(installed.Written[0]) {
		t.Error("files were removed although the service could not be stopped")
	}
}

// TestUninstallWithoutAManager removes the files when the service manager cannot be reached at
// all (no user bus): nothing can be running under it.
func TestUninstallWithoutAManager(t *testing.T) {
	o, f := options(t, "systemd", false)
	installed, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	f.fail = func([]string) ([]byte, error) {
		return []byte("Failed to connect to bus: No medium found\n"), errors.New("exit status 1")
	}
	if _, err := Uninstall(o); err != nil {
		t.Fatalf("Uninstall = %v", err)
	}
	if exists(installed.Written[0]) {
		t.Error("the unit file was left behind")
	}
}

func TestOptionsErrors(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Options)
		want   string
	}{
		{"relative binary", func(o *Options) { o.Binary = "dreamd" }, "not absolute"},
		{"unknown target", func(o *Options) { o.Target = "upstart" }, "--target"},
		{"newline in a path", func(o *Options) { o.ConfigFile = "/etc/a\nb.yaml" }, "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, f := options(t, "systemd", false)
			tt.change(&o)
			if _, err := Install(o); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Install = %v, want an error containing %q", err, tt.want)
			}
			if len(f.calls) != 0 {
				t.Errorf("ran %v", f.calls)
			}
		})
	}
}

func TestRelativeConfigIsMadeAbsolute(t *testing.T) {
	o, _ := options(t, "launchd", false)
	o.ConfigFile = "dreamd.yaml"
	res, err := Install(o)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	args := plistArgs(t, readAll(t, res.Written)[0])
	if want := filepath.Join(wd, "dreamd.yaml"); args[len(args)-1] != want {
		t.Errorf("--config %q, want %q", args[len(args)-1], want)
	}
}

func TestTarget(t *testing.T) {
	tests := []struct{ target, goos, want string }{
		{"", "linux", "systemd"},
		{"", "darwin", "launchd"},
		{"launchd", "linux", "launchd"},
		{"", "windows", ""},
		{"cron", "linux", ""},
	}
	for _, tt := range tests {
		got, err := target(tt.target, tt.goos)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("target(%q, %q) = %q, %v; want %q", tt.target, tt.goos, got, err, tt.want)
		}
	}
}

func variantName(target string, timer bool) string {
	if timer {
		return target + "-timer"
	}
	return target
}

func readAll(t *testing.T, paths []string) []string {
	t.Helper()
	var contents []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		contents = append(contents, string(data))
	}
	return contents
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestInstallCommandFailure(t *testing.T) {
	o, f := options(t, "systemd", false)
	var out bytes.Buffer
	o.Out = &out
	f.fail = func(cmd []string) ([]byte, error) {
		if slices.Contains(cmd, "enable") {
			return []byte("Failed to enable unit: Access denied\n"), errors.New("exit status 1")
		}
		return nil, nil
	}
	res, err := Install(o)
	if err == nil || !strings.Contains(err.Error(), "enable --now dreamd.service: exit status 1: Failed to enable unit: Access denied") {
		t.Fatalf("Install = %v", err)
	}
	if len(res.Hints) != 0 || len(res.Written) != 1 || len(res.Commands) != 2 {
		t.Errorf("Result of a failed install = %+v", res)
	}
	if !strings.Contains(out.String(), "$ systemctl --user enable --now dreamd.service\nFailed to enable unit: Access denied\n") {
		t.Errorf("Out = %q", out.String())
	}
}

// TestUninstallRemovesTimerStamp removes the stamp systemd keeps for Persistent=true, where the
// user manager keeps it: $XDG_DATA_HOME, else ~/.local/share.
func TestUninstallRemovesTimerStamp(t *testing.T) {
	tests := []struct {
		name     string
		dataHome func(home string) string // XDG_DATA_HOME; "" leaves it unset
		units    bool                     // the timer units are installed, not removed by hand
	}{
		{"default data home", func(string) string { return "" }, true},
		{"XDG_DATA_HOME", func(home string) string { return filepath.Join(home, "data") }, true},
		{"relative XDG_DATA_HOME is ignored", func(string) string { return "data" }, true},
		{"units removed by hand", func(string) string { return "" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, f := options(t, "systemd", true)
			t.Setenv("XDG_DATA_HOME", tt.dataHome(o.Home))
			installed, err := Install(o)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.units {
				for _, p := range installed.Written {
					os.Remove(p)
				}
			}
			stamp := filepath.Join(o.Home, ".local", "share", "systemd", "timers", "stamp-dreamd.timer")
			if d := tt.dataHome(o.Home); filepath.IsAbs(d) {
				stamp = filepath.Join(d, "systemd", "timers", "stamp-dreamd.timer")
			}
			writeFile(t, stamp)
			f.calls = nil
			res, err := Uninstall(o)
			if err != nil {
				t.Fatal(err)
			}
			if exists(stamp) || !slices.Contains(res.Removed, stamp) {
				t.Errorf("the stamp %s was not removed: removed %v", stamp, res.Removed)
			}
			if got := f.commands(); got[len(got)-1] != "systemctl --user daemon-reload" {
				t.Errorf("commands %q, want a daemon-reload last", got)
			}
		})
	}
}

// TestSwitchingToTheDaemonRemovesTheStamp: the stamp belongs to the timer, which the daemon
// replaces.
func TestSwitchingToTheDaemonRemovesTheStamp(t *testing.T) {
	o, _ := options(t, "systemd", true)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	stamp := (&session{o: Options{DataHome: filepath.Join(o.Home, ".local", "share")}}).stampPath()
	writeFile(t, stamp)
	o.Timer = false
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	if exists(stamp) {
		t.Error("the timer's stamp outlived it")
	}
}

func TestUninstallResetsFailedUnits(t *testing.T) {
	for _, timer := range []bool{false, true} {
		t.Run(variantName("systemd", timer), func(t *testing.T) {
			o, f := options(t, "systemd", timer)
			if _, err := Install(o); err != nil {
				t.Fatal(err)
			}
			f.fail = func(cmd []string) ([]byte, error) {
				if slices.Contains(cmd, "reset-failed") { // what systemctl says of a unit that never ran
					return []byte("Failed to reset failed state of unit dreamd.timer: Unit dreamd.timer not loaded.\n"), errors.New("exit status 1")
				}
				return nil, nil
			}
			f.calls = nil
			var echoed strings.Builder
			o.Out = &echoed
			if _, err := Uninstall(o); err != nil {
				t.Fatal(err)
			}
			// systemd's word about a unit that never failed is noise after an uninstall that worked.
			if strings.Contains(echoed.String(), "Failed to reset failed state") {
				t.Errorf("the harmless reset-failed message is shown:\n%s", echoed.String())
			}
			want := map[bool]string{false: "systemctl --user reset-failed dreamd.service",
				true: "systemctl --user reset-failed dreamd-once.service dreamd.timer"}[timer]
			if got := f.commands(); !slices.Contains(got, want) {
				t.Errorf("commands %q lack %q", got, want)
			}
		})
	}
}

func TestUninstallRemovesTheLaunchdLog(t *testing.T) {
	o, _ := options(t, "launchd", false)
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	s := &session{o: o}
	writeFile(t, s.logPath())
	res, err := Uninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if exists(filepath.Dir(s.logPath())) {
		t.Errorf("the log directory is still there; removed %v", res.Removed)
	}

	// A directory holding someone else's file stays, with a word about it.
	if _, err := Install(o); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(s.logPath()), "notes.txt")
	writeFile(t, other)
	if res, err = Uninstall(o); err != nil {
		t.Fatal(err)
	}
	if !exists(other) || len(res.Hints) != 1 || !strings.Contains(res.Hints[0], "not empty") {
		t.Errorf("hints %q; notes.txt kept: %v", res.Hints, exists(other))
	}
}

func TestInstalled(t *testing.T) {
	for _, target := range []string{"systemd", "launchd"} {
		for _, timer := range []bool{false, true} {
			t.Run(variantName(target, timer), func(t *testing.T) {
				o, _ := options(t, target, timer)
				if files, _, err := Installed(o); err != nil || len(files) != 0 {
					t.Fatalf("before install: %v, %v", files, err)
				}
				o.NoStart = true
				installed, err := Install(o)
				if err != nil {
					t.Fatal(err)
				}
				files, isTimer, err := Installed(o)
				if err != nil || !slices.Equal(files, installed.Written) || isTimer != timer {
					t.Errorf("Installed = %v, %v, %v; want %v, %v", files, isTimer, err, installed.Written, timer)
				}
			})
		}
	}
}

func TestNextRun(t *testing.T) {
	tests := []struct {
		name   string
		target string
		out    string
		err    error
		want   time.Time
	}{
		{"scheduled", "systemd", "Sat 2026-05-16 14:03:12 UTC\n", nil, time.Date(2026, 5, 16, 14, 3, 12, 0, time.UTC)},
		{"not scheduled", "systemd", "n/a\n", nil, time.Time{}},
		{"no user manager", "systemd", "Failed to connect to bus: No medium found\n", errors.New("exit status 1"), time.Time{}},
		{"launchd has no next time", "launchd", "", nil, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, _ := options(t, tt.target, true)
			var ran []string
			o.Run = func(name string, args ...string) ([]byte, error) {
				ran = append(ran, name+" "+strings.Join(args, " "))
				return []byte(tt.out), tt.err
			}
			got, ok := NextRun(o)
			if !got.Equal(tt.want) || ok != !tt.want.IsZero() {
				t.Errorf("NextRun = %v, %v; want %v", got, ok, tt.want)
			}
			want := []string{"systemctl --user show dreamd.timer -p NextElapseUSecRealtime --value"}
			if tt.target == "launchd" {
				want = nil
			}
			if !slices.Equal(ran, want) {
				t.Errorf("ran %q, want %q", ran, want)
			}
		})
	}
}

func TestParseSystemdTime(t *testing.T) {
	berlin := time.FixedZone("CEST", 2*60*60)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"Sat 2026-05-16 14:03:12 UTC", time.Date(2026, 5, 16, 14, 3, 12, 0, time.UTC)},
		{"Sat 2026-05-16 14:03:12 CEST", time.Date(2026, 5, 16, 14, 3, 12, 0, berlin)},
		{"Sat 2026-05-16 14:03:12.250000 CEST", time.Date(2026, 5, 16, 14, 3, 12, 250e6, berlin)},
		{"", time.Time{}},
		{"n/a", time.Time{}},
		{"0", time.Time{}},
	}
	for _, tt := range tests {
		got, ok := parseSystemdTime(tt.in, berlin)
		if !got.Equal(tt.want) || ok != !tt.want.IsZero() {
			t.Errorf("parseSystemdTime(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
		}
	}
}

func writeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}
