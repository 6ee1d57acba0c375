package main

import (
	"regexp"
	"strings"
	"testing"
)

// hintRe finds the command lines a message advises, in backquotes.
var hintRe = regexp.MustCompile("`(dreamd [^`]+)`")

// TestQuickStartHintsWork: the hints of a pass run with --config (the README's quick start) carry
// that --config, and each works as printed; without it they named a state directory the run had
// not used and failed with "no run".
func TestQuickStartHintsWork(t *testing.T) {
	s := newExampleSandbox(t, 0)
	s.write("src/shop/configs/demo.yaml", offlineConfig+"state_dir: ../.demo-state\n")
	out, errOut, code := s.shell("dreamd run --once --config configs/demo.yaml")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	hints := hintRe.FindAllStringSubmatch(out, -1)
	if len(hints) < 4 { // per store: undo, and the diff
		t.Fatalf("want the undo and diff hints of two stores, got %q in\n%s", hints, out)
	}
	for _, h := range hints {
		if !strings.HasSuffix(h[1], "--config configs/demo.yaml") {
			t.Errorf("hint %q does not carry the run's --config", h[1])
		}
	}
	// The diff first, then the undo, as a user would: each exactly as printed.
	for _, h := range []string{hints[1][1], hints[0][1]} {
		if out, errOut, code := s.shell(h); code != 0 {
			t.Errorf("%s: exit %d\n%s%s", h, code, out, errOut)
		}
	}
}

// TestNoRunMessages: a run id dreamd cannot find is explained by what is actually the case.
func TestNoRunMessages(t *testing.T) {
	s := newExampleSandbox(t, 0)
	_, errOut, code := s.shell("dreamd history show 20261126T211947Z-07a7cb")
	if code != exitUsage || !strings.Contains(errOut, "there are no applied runs in") || strings.Contains(errOut, "pruned") {
		t.Errorf("no runs at all: exit %d, %s", code, errOut)
	}
	s.must("dreamd", "run", "--once")
	for _, tt := range []struct {
		id, want, not string
	}{
		{"20001120T100000Z-a1b2c3", "older than the oldest run kept", ""},
		{"29991120T100000Z-a1b2c3", "among the 2 kept (`dreamd history --limit 0` lists them)", "pruned"},
		{"typo", "among the 2 kept", "pruned"},
	} {
		for _, cmd := range []string{"history show", "rollback"} {
			_, errOut, code := s.shell("dreamd " + cmd + " " + tt.id)
			if code != exitUsage || !strings.Contains(errOut, tt.want) || tt.not != "" && strings.Contains(errOut, tt.not) {
				t.Errorf("%s %s: exit %d, %s; want %q", cmd, tt.id, code, errOut, tt.want)
			}
		}
	}
}

// TestRollbackChoosesOnlyWhenClear: with runs in several stores, rollback without a run refuses
// and lists one working command per store; --project picks one; once a store's runs are all
// rolled back, rollback says how to undo the rollback instead of "nothing to roll back".
func TestRollbackChoosesOnlyWhenClear(t *testing.T) {
	s := newExampleSandbox(t, 0)
	s.must("dreamd", "run", "--once")
	_, errOut, code := s.shell("dreamd rollback")
	if code != exitUsage || !strings.Contains(errOut, "2 stores have a run to roll back") {
		t.Fatalf("rollback with two stores: exit %d\n%s", code, errOut)
	}
	choices := regexp.MustCompile(`(?m)^  (dreamd rollback \S+)`).FindAllStringSubmatch(errOut, -1)
	if len(choices) != 2 {
		t.Fatalf("want two choices listed, got %q", errOut)
	}
	if out, errOut, code := s.shell(choices[0][1]); code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", choices[0][1], code, out, errOut)
	}
	// One store left with a run: the bare rollback takes it.
	if out, errOut, code := s.shell("dreamd rollback"); code != 0 || !strings.Contains(out, "rolled back") {
		t.Fatalf("rollback with one store left: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = s.shell("dreamd rollback --project ~/src/shop")
	undo := hintRe.FindStringSubmatch(errOut)
	if code != exitUsage || !strings.Contains(errOut, "nothing left to roll back") || undo == nil || !strings.HasPrefix(undo[1], "dreamd rollback rollback-") {
		t.Fatalf("rollback after rollback: exit %d\n%s", code, errOut)
	}
	if out, errOut, code := s.shell(undo[1]); code != 0 {
		t.Errorf("%s: exit %d\n%s%s", undo[1], code, out, errOut)
	}
}

// TestDoctorWithoutUserManager: where no systemd user manager answers (no login session, no
// lingering), doctor advises what can work there, not a `systemctl --user` command.
func TestDoctorWithoutUserManager(t *testing.T) {
	s := newExampleSandbox(t, 0)
	s.write("bin/systemctl", "#!/bin/sh\necho 'Failed to connect to bus: No such file or directory' >&2\nexit 1\n")
	for _, installed := range []bool{false, true} {
		if installed {
			s.write(".config/systemd/user/dreamd.service", "[Service]\n")
		}
		check, _, _ := s.shell("dreamd doctor --format json | jq -c '.checks[] | select(.name == \"service\")'")
		fix, _, _ := s.shell("dreamd doctor --format json | jq -r '.checks[] | select(.name == \"service\") | .fix'")
		if strings.Contains(fix, "systemctl --user") || !strings.Contains(fix, "loginctl enable-linger") || !strings.Contains(check, "Failed to connect to bus") {
			t.Errorf("installed %v: %s", installed, check)
		}
	}
}

// TestTimerPassIsBrief: the timer's command (`run --once --gated --brief`) writes a line per store
// that did something and nothing for a store with nothing new.
func TestTimerPassIsBrief(t *testing.T) {
	s := newExampleSandbox(t, 0)
	out, errOut, code := s.shell("dreamd run --once --brief")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "store ") || !strings.Contains(lines[0], ": applied run ") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := s.shell("dreamd run --once --gated --brief"); code != 0 || out != "" {
		t.Errorf("a pass with nothing new: exit %d, stdout %q\n%s", code, out, errOut)
	}
}

// TestParkedPlanAdvice: status names a plan a guard refused by its run id, once, with the command
// that applies it (with --force, which it needs) and the one that drops it; each works as printed.
func TestParkedPlanAdvice(t *testing.T) {
	s := newExampleSandbox(t, 0)
	s.write(".config/dreamd/config.yaml", offlineConfig+"prune: {ttl: {project: 1d}}\n")
	store := ".claude/projects/" + projectSlug(s.path("src/shop")) + "/memory/"
	for _, name := range []string{"alpha", "beta", "gamma", "delta"} {
		s.write(store+name+".md", "---\nname: "+name+"\ndescription: the "+name+" fact\ntype: project\ncreated: 2020-01-01\nupdated: 2020-01-01\n---\nThe "+name+" fact.\n")
	}
	if out, errOut, code := s.shell("dreamd run --once --project ~/src/shop"); code != exitRefused {
		t.Fatalf("a pass retiring every memory: exit %d, want %d\n%s%s", code, exitRefused, out, errOut)
	}
	out, errOut, code := s.shell("dreamd status --project ~/src/shop")
	if code != 0 {
		t.Fatalf("status: exit %d\n%s", code, errOut)
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "refused plan") {
			line = l
		}
	}
	hints := hintRe.FindAllStringSubmatch(line, -1)
	if len(hints) != 2 || !strings.HasSuffix(hints[0][1], "--force") || strings.Contains(line, "/pending/") {
		t.Fatalf("status:\n%s", out)
	}
	if out, errOut, code := s.shell(hints[0][1]); code != 0 {
		t.Errorf("%s: exit %d\n%s%s", hints[0][1], code, out, errOut)
	}
}

// TestPendingPlanAdvice: the pass's report and status name a plan left for review (apply: review),
// status by its run id, with
// the commands that review it operation by operation, apply it whole and drop it; review (reading
// q: nothing applied) and apply work as printed.
func TestPendingPlanAdvice(t *testing.T) {
	s := newExampleSandbox(t, 0)
	s.write(".config/dreamd/config.yaml", offlineConfig+"apply: review\n")
	out, errOut, code := s.shell("dreamd run --once --project ~/src/shop")
	if code != 0 || !strings.Contains(out, "pending review") {
		t.Fatalf("a pass left for review: exit %d\n%s%s", code, out, errOut)
	}
	// The pass's report says so too, with the same two commands.
	if saved := hintRe.FindAllStringSubmatch(out, 2); len(saved) != 2 || !strings.HasPrefix(saved[0][1], "dreamd review ") || !strings.HasPrefix(saved[1][1], "dreamd apply ") {
		t.Errorf("the pass's report:\n%s", out)
	} else if out, errOut, code := s.shell("echo q | " + saved[0][1]); code != 0 || !strings.Contains(errOut, "nothing applied") {
		t.Errorf("%s: exit %d\n%s%s", saved[0][1], code, out, errOut)
	}
	out, errOut, code = s.shell("dreamd status --project ~/src/shop")
	if code != 0 {
		t.Fatalf("status: exit %d\n%s", code, errOut)
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "plan to review") {
			line = l
		}
	}
	hints := hintRe.FindAllStringSubmatch(line, -1)
	if len(hints) != 3 || !strings.HasPrefix(hints[0][1], "dreamd review ") || !strings.HasPrefix(hints[1][1], "dreamd apply ") || !strings.HasPrefix(hints[2][1], "dreamd discard ") {
		t.Fatalf("status:\n%s", out)
	}
	if out, errOut, code := s.shell("echo q | " + hints[0][1]); code != 0 || !strings.Contains(errOut, "nothing applied") {
		t.Errorf("%s: exit %d\n%s%s", hints[0][1], code, out, errOut)
	}
	if out, errOut, code := s.shell(hints[1][1]); code != 0 || !strings.Contains(out, "applied plan") {
		t.Errorf("%s: exit %d\n%s%s", hints[1][1], code, out, errOut)
	}
}

// TestExitCodesDocumented: the exit codes are in the root --help and in every man page.
func TestExitCodesDocumented(t *testing.T) {
	s := newSandbox(t, "")
	out, _, code := s.run("--help")
	if code != 0 || !strings.Contains(out, "Exit codes:\n  0  done") || !strings.Contains(out, "  4  refused by a safety guard") {
		t.Errorf("--help:\n%s", out)
	}
	if _, errOut, code := s.run("man", s.path("man")); code != 0 {
		t.Fatalf("man: exit %d\n%s", code, errOut)
	}
	pages := snapshot(t, s.path("man"))
	if len(pages) < 20 {
		t.Fatalf("only %d man pages", len(pages))
	}
	for p, text := range pages {
		if !strings.Contains(text, ".SH EXIT STATUS\n.TP\n.B 0\n") || !strings.Contains(text, ".B 4\nrefused by a safety guard") {
			t.Errorf("%s has no EXIT STATUS section", p)
		}
		if n := strings.Count(text, "refused by a safety guard"); n != 1 {
			t.Errorf("%s states the exit codes %d times, want once (its EXIT STATUS)", p, n)
		}
	}
}

// TestRecallUnknownProject: recall of a project whose sessions never reached dreamd is an error
// saying so, as the MCP tool's is, not "no memories".
func TestRecallUnknownProject(t *testing.T) {
	s := newExampleSandbox(t, 0)
	_, errOut, code := s.shell("dreamd recall deploy --project ~/src/blog")
	if code != exitUsage || !strings.Contains(errOut, "no memory store for it") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}

// TestStoreChoiceMessages: a store or plan named wrongly is refused with what to give instead.
func TestStoreChoiceMessages(t *testing.T) {
	s := newExampleSandbox(t, needApplied)
	for _, tt := range []struct{ line, want string }{
		{"dreamd status --project ~/src/nowhere", "dreamd knows no store of this project"},
		{"dreamd history --project ~/src/shop --store ~/src/shop", "give one of them"},
		{"dreamd apply " + s.run, "is already applied (`dreamd history show " + s.run + "` shows it)"},
		{"dreamd apply 20261120T100000Z-a1b2c3", "no pending plan has that run id (`dreamd status`"},
		{"dreamd discard 20261120T100000Z-a1b2c3", "is not a pending plan"},
	} {
		_, errOut, code := s.shell(tt.line)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%s: exit %d, %s; want %q", tt.line, code, errOut, tt.want)
		}
	}
	// Two stores have new material: -o FILE cannot hold both plans.
	s.write(".claude/projects/"+projectSlug(s.path("src/shop"))+"/cccc3333-0000-4000-8000-000000000003.jsonl",
		claudeSession("cccc3333-0000-4000-8000-000000000003", s.path("src/shop"), "Remember that the staging database is reset nightly."))
	s.write(".claude/projects/"+projectSlug(s.path("src/blog"))+"/dddd4444-0000-4000-8000-000000000004.jsonl",
		claudeSession("dddd4444-0000-4000-8000-000000000004", s.path("src/blog"), "Remember that drafts live in content/drafts."))
	_, errOut, code := s.shell("dreamd plan -o shop.plan.json")
	if code != exitUsage || !strings.Contains(errOut, "name a directory (`dreamd plan -o plans/`) or one store") {
		t.Errorf("plan -o FILE with two stores: exit %d\n%s", code, errOut)
	}
}

// TestDoctorHintsCarryConfig: every command doctor advises (sessions, install, run from cron, the
// debug pass) carries the --config doctor was given, so it looks at the same setup when run as
// printed.
func TestDoctorHintsCarryConfig(t *testing.T) {
	s := newExampleSandbox(t, 0)
	s.write("bin/systemctl", "#!/bin/sh\necho 'Failed to connect to bus: No such file or directory' >&2\nexit 1\n")
	s.write("src/shop/configs/demo.yaml", offlineConfig+"state_dir: ../.demo-state\n")
	out, errOut, _ := s.shell("dreamd doctor --config configs/demo.yaml --format json | jq -r '.checks[] | .detail, .fix'")
	hints := hintRe.FindAllStringSubmatch(out, -1)
	if len(hints) < 3 { // sessions per source; run and run --once --gated from cron
		t.Fatalf("want doctor's advice of sessions and run, got %q in\n%s%s", hints, out, errOut)
	}
	for _, h := range hints {
		if !strings.HasSuffix(h[1], "--config configs/demo.yaml") {
			t.Errorf("advice %q does not carry doctor's --config", h[1])
		}
	}
}
