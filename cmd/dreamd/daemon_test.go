package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// TestDaemonRunsOnScheduleAndStopsOnSIGTERM starts the real daemon on a one-second schedule with
// the gates open, waits for it to consolidate, and stops it with SIGTERM.
func TestDaemonRunsOnScheduleAndStopsOnSIGTERM(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: llmtest.Ops("r", map[string]any{"action": "create", "name": "deploy-rule", "type": "project", "description": "d", "body": "b", "reason": "r"})}
	}
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL())+`schedule: "@every 1s"
gates: {min_hours: 0, min_sessions: 1, idle_minutes: 0}
`)
	s.write(sessionAPath, sessionA)

	cmd := exec.Command(binary, "--config", s.config, "run")
	cmd.Env, cmd.Dir = s.env, s.home
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	deadline := time.After(20 * time.Second)
	for {
		if _, err := os.Stat(s.path(shopStore + "/deploy-rule.md")); err == nil {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("the daemon exited early: %v\n%s", err, stderr.String())
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("the daemon consolidated nothing within 20s:\n%s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}

	out, _, code := s.run("status", "--json")
	var st struct {
		Daemon struct {
			Running bool
			Mode    string
		}
		Stores []struct {
			Memories int
			Gates    struct{ Open bool }
		}
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil {
		t.Fatalf("status --json: exit %d, %v\n%s", code, err, out)
	}
	if !st.Daemon.Running || st.Daemon.Mode != "daemon" || len(st.Stores) != 1 || st.Stores[0].Memories != 1 {
		t.Errorf("status while the daemon runs: %s", out)
	}

	// A second daemon on the same state directory refuses to start, naming the first.
	if _, errOut, code := s.run("run"); code != 3 || !strings.Contains(errOut, "another dreamd daemon is running") ||
		!strings.Contains(errOut, "pid ") {
		t.Errorf("second daemon: exit %d, want 3 naming the first:\n%s", code, errOut)
	}

	// SIGHUP with a broken config: logged, the running config kept; then with a good one: reloaded.
	good, _ := os.ReadFile(s.config)
	s.write("dreamd.yaml", string(good)+"colour: blue\n")
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor(t, &stderr, "config reload failed")
	s.write("dreamd.yaml", strings.Replace(string(good), "@every 1s", "@every 2s", 1))
	cmd.Process.Signal(syscall.SIGHUP)
	waitFor(t, &stderr, "config reloaded")

	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("the daemon did not exit 0 on SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the daemon did not stop within 10s of SIGTERM")
	}
	if calls := len(srv.Requests()); calls != 1 {
		t.Errorf("%d calls: the gates must keep a consolidated store closed", calls)
	}
}

// waitFor waits up to ten seconds for the daemon's log to say want.
func waitFor(t *testing.T, log *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(log.String(), want) {
			return
		}
	}
	t.Fatalf("the daemon never logged %q:\n%s", want, log.String())
}

// syncBuffer is a bytes.Buffer safe to read while a process writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestDaemonGatesClosed keeps a store's gates closed (too few sessions) and checks nothing runs.
func TestDaemonGatesClosed(t *testing.T) {
	srv := llmtest.New()
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL())+`schedule: "@every 1s"
gates: {min_hours: 0, min_sessions: 5, idle_minutes: 0}
`)
	s.write(sessionAPath, sessionA)
	out, _, code := s.run("run", "--once", "--gated")
	if code != 0 || !strings.Contains(out, "gated") || len(srv.Requests()) != 0 {
		t.Fatalf("run --once --gated with a closed gate: exit %d, %d calls\n%s", code, len(srv.Requests()), out)
	}
	out, _, _ = s.run("status")
	if !strings.Contains(out, "closed (min_sessions)") {
		t.Errorf("status does not name the closed gate:\n%s", out)
	}
}

func TestInstallAndUninstall(t *testing.T) {
	for _, tt := range []struct {
		target string
		args   []string
		files  []string
	}{
		{"systemd", nil, []string{".config/systemd/user/dreamd.service"}},
		{"systemd", []string{"--timer"}, []string{".config/systemd/user/dreamd-once.service", ".config/systemd/user/dreamd.timer"}},
		{"launchd", nil, []string{"Library/LaunchAgents/dev.dreamd.agent.plist"}},
	} {
		t.Run(tt.target+strings.Join(tt.args, ""), func(t *testing.T) {
			s := newSandbox(t, offlineConfig)
			calls := fakeManagers(s, "")
			args := append([]string{"install", "--target", tt.target, "--no-start"}, tt.args...)
			for range 2 { // installing twice is idempotent
				if out, errOut, code := s.run(args...); code != 0 {
					t.Fatalf("install: exit %d\n%s\n%s", code, out, errOut)
				}
			}
			for _, f := range tt.files {
				b, err := os.ReadFile(s.path(f))
				if err != nil {
					t.Fatalf("install did not write %s", f)
				}
				checkUnit(t, f, string(b))
			}
			// What systemd itself writes for the timer (Persistent=true) goes too.
			stamp := ".local/share/systemd/timers/stamp-dreamd.timer"
			if slices.Contains(tt.args, "--timer") && tt.target == "systemd" {
				s.write(stamp, "")
				tt.files = append(tt.files, stamp)
			}
			if out, errOut, code := s.run("uninstall", "--target", tt.target); code != 0 {
				t.Fatalf("uninstall: exit %d\n%s\n%s", code, out, errOut)
			}
			for _, f := range tt.files {
				if _, err := os.Stat(s.path(f)); err == nil {
					t.Errorf("uninstall left %s", f)
				}
			}
			recorded, _ := os.ReadFile(calls)
			if !strings.Contains(string(recorded), map[string]string{"systemd": "systemctl --user disable --now", "launchd": "launchctl bootout"}[tt.target]) {
				t.Errorf("uninstall did not stop the service; manager calls:\n%s", recorded)
			}
		})
	}
}

// fakeManagers puts stand-ins for systemctl and launchctl first on the sandbox's PATH, so a test
// never touches a real user session's services. They record their calls in the file whose path
// they return; systemctl prints showOutput for `show`.
func fakeManagers(s *sandbox, showOutput string) (calls string) {
	calls = s.path("manager-calls")
	for _, name := range []string{"systemctl", "launchctl"} {
		script := "#!/bin/sh\necho \"" + name + " $*\" >> " + calls + "\n"
		if name == "systemctl" && showOutput != "" {
			script += "case \"$*\" in *show*) printf '%s\\n' '" + showOutput + "';; esac\n"
		}
		s.write("fakebin/"+name, script)
		os.Chmod(s.path("fakebin/"+name), 0o755)
	}
	for i, kv := range s.env {
		if strings.HasPrefix(kv, "PATH=") {
			s.env[i] = "PATH=" + s.path("fakebin") + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	return calls
}

// TestDaemonWithABadConfigIsNotRestarted: the daemon exits 2 on a bad config, and the unit names
// 2 among the statuses systemd does not restart, so a typo is not retried every 30s forever.
func TestDaemonWithABadConfigIsNotRestarted(t *testing.T) {
	for name, cfg := range map[string]string{
		"unknown key":  offlineConfig + "colour: blue\n",
		"bad schedule": offlineConfig + "schedule: every tuesday\n",
	} {
		t.Run(name, func(t *testing.T) {
			s := newSandbox(t, cfg)
			if _, errOut, code := s.run("run"); code != exitUsage {
				t.Errorf("exit %d, want %d:\n%s", code, exitUsage, errOut)
			}
		})
	}
	unit, err := os.ReadFile("../../systemd/dreamd.service")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("\nRestartPreventExitStatus=%d %d\n", exitUsage, exitBusy); !strings.Contains(string(unit), want) {
		t.Errorf("systemd/dreamd.service lacks %q", want)
	}
}

// TestStatusInTimerMode: with the timer installed instead of the daemon, status says so, with
// the next run systemd reports, or "unknown" when systemctl cannot tell.
func TestStatusInTimerMode(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("status looks for systemd units on Linux only")
	}
	for _, tt := range []struct {
		name, show, want string
	}{
		{"next run known", "Sat 2031-05-17 14:03:12 UTC", "next run " + time.Date(2031, 5, 17, 14, 3, 12, 0, time.UTC).Local().Format("2006-01-02 15:04:05")},
		{"next run unknown", "n/a", "next run unknown"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox(t, offlineConfig)
			fakeManagers(s, tt.show)
			if out, errOut, code := s.run("install", "--timer", "--target", "systemd", "--no-start"); code != 0 {
				t.Fatalf("install --timer: exit %d\n%s\n%s", code, out, errOut)
			}
			out, errOut, code := s.run("status")
			if code != 0 || !strings.Contains(out, "timer mode") || !strings.Contains(out, tt.want) || strings.Contains(out, "start it with") {
				t.Errorf("status: exit %d, want timer mode and %q:\n%s%s", code, tt.want, out, errOut)
			}
			out, _, _ = s.run("status", "--json")
			var st struct {
				Daemon struct {
					Running bool
					Mode    string
					NextRun *time.Time `json:"next_run"`
				}
			}
			if err := json.Unmarshal([]byte(out), &st); err != nil {
				t.Fatalf("status --json: %v\n%s", err, out)
			}
			if st.Daemon.Running || st.Daemon.Mode != "timer" || (st.Daemon.NextRun != nil) != (tt.show != "n/a") {
				t.Errorf("status --json: %+v\n%s", st.Daemon, out)
			}
		})
	}
}

func checkUnit(t *testing.T, name, content string) {
	t.Helper()
	switch {
	case strings.HasSuffix(name, "dreamd.service"):
		for _, want := range []string{"ExecStart=" + binary + " run --config ", "Restart=on-failure", "RestartPreventExitStatus=2 3",
			"WantedBy=default.target", "NoNewPrivileges=yes", "SystemCallFilter=@system-service"} {
			if !strings.Contains(content, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, content)
			}
		}
	case strings.HasSuffix(name, "dreamd-once.service"):
		for _, want := range []string{"Type=oneshot", "run --once --gated", "SystemCallFilter=@system-service"} {
			if !strings.Contains(content, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, content)
			}
		}
	case strings.HasSuffix(name, ".timer"):
		for _, want := range []string{"OnCalendar=", "Persistent=true", "RandomizedDelaySec="} {
			if !strings.Contains(content, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, content)
			}
		}
	case strings.HasSuffix(name, ".plist"):
		dec := xml.NewDecoder(strings.NewReader(content))
		for {
			if _, err := dec.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Errorf("plist is not XML: %v", err)
				}
				break
			}
		}
		for _, want := range []string{"<string>" + binary + "</string>", "RunAtLoad", "KeepAlive", "SuccessfulExit", "ThrottleInterval",
			"<string>Background</string>", "LowPriorityIO", "Library/Logs/dreamd"} {
			if !strings.Contains(content, want) {
				t.Errorf("plist lacks %q:\n%s", want, content)
			}
		}
	}
}
