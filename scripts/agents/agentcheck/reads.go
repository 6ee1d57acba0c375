package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// sessionsReport is the part of `dreamd sessions --format json` the checks read.
type sessionsReport struct {
	Sessions []struct {
		Kind, ID, Project, Store, Path string
	} `json:"sessions"`
	Skipped []struct{ Path, Reason string } `json:"skipped"`
}

// digestSession is one <session> of the digest dreamd sent to the model.
type digestSession struct {
	id, source, project, date string
	turns                     []digestTurn
}

type digestTurn struct{ role, text string }

// agentDirs are the directories under HOME each agent writes its sessions to.
var agentDirs = map[string]string{"claude": ".claude", "codex": ".codex", "gemini": ".gemini", "cline": ".cline", "qwen": ".qwen", "copilot": ".copilot", "opencode": ".local/share/opencode", "kilo": ".local/share/kilo"}

// sourceKinds names the source kind that reads an agent's sessions where it is not the agent's name.
var sourceKinds = map[string]string{"kilo": "opencode"}

// sourceKind is the kind of the source that reads the agent's sessions.
func sourceKind(agent string) string {
	if k, ok := sourceKinds[agent]; ok {
		return k
	}
	return agent
}

func reads(args []string) error {
	fs := newFlags("reads")
	agent := fs.String("agent", "", "claude, codex or gemini")
	project := fs.String("project", "", "the project directory the sessions ran in")
	today := fs.String("today", "", "the sessions' date, YYYY-MM-DD (UTC)")
	home := fs.String("home", "", "the agent's HOME")
	sessionsFile := fs.String("sessions", "", "dreamd sessions --format json")
	digests := fs.String("digests", "", "file listing the consolidation requests dreamd sent")
	dryRun := fs.String("dry-run", "", "the report of an offline dreamd run --once --dry-run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c := checker{prefix: *agent + " reads:"}

	var rep sessionsReport
	if b, err := os.ReadFile(*sessionsFile); err != nil || json.Unmarshal(b, &rep) != nil {
		c.fail("dreamd sessions --format json", "no report (%v)", err)
	} else {
		checkSessions(c, rep, *agent, *project, *home)
	}

	sessions, err := readDigests(*digests)
	if err != nil {
		c.fail("the digest reaches the model", "%v", err)
	} else {
		checkDigest(c, sessions, *agent, *project, *today)
	}

	b, _ := os.ReadFile(*dryRun)
	report := string(b)
	c.check("an offline dry run proposes the lesson", func() error {
		if !strings.Contains(report, "+ create") || !strings.Contains(strings.ToLower(report), strings.ToLower(memoryText)) {
			return fmt.Errorf("no created memory saying %q in:\n%s", memoryText, indent(report))
		}
		return nil
	}())
	checkCommands(c, report) // commands.go
	checkAnswers(c, *agent, report)
	return nil
}

func checkSessions(c checker, rep sessionsReport, agent, project, home string) {
	var mine []string
	for _, s := range rep.Sessions {
		if s.Kind == sourceKind(agent) {
			mine = append(mine, s.Path)
		}
	}
	c.check("dreamd sessions lists the sessions", func() error {
		if len(mine) == 0 {
			return fmt.Errorf("no %s session listed (%d skipped: %v)", agent, len(rep.Skipped), rep.Skipped)
		}
		return nil
	}())
	c.check("no session file passed over", func() error {
		var errs []error
		own := filepath.Join(home, agentDirs[agent]) + string(filepath.Separator)
		for _, s := range rep.Skipped {
			subagent := strings.Contains(s.Reason, "sub-agent") || strings.Contains(s.Reason, "subagent")
			if strings.HasPrefix(s.Path, own) && !subagent && s.Reason != "source path does not exist" {
				errs = append(errs, fmt.Errorf("%s: %s", strings.TrimPrefix(s.Path, home), s.Reason))
			}
		}
		return errors.Join(errs...)
	}())
	c.check("every session is in the project, routed to its Claude Code store", func() error {
		var errs []error
		want := filepath.Join(home, ".claude", "projects", claudeFolder(project), "memory")
		for _, s := range rep.Sessions {
			if s.Kind != sourceKind(agent) {
				continue
			}
			if s.Project != project {
				errs = append(errs, fmt.Errorf("%s: project %q, want %q", s.ID, s.Project, project))
			}
			if agent == "claude" && !strings.Contains(s.Path, "/subagents/") {
				want = filepath.Join(filepath.Dir(s.Path), "memory") // the folder Claude Code keeps the project in
			}
			if s.Store != want {
				errs = append(errs, fmt.Errorf("%s: store %q, want %q", s.ID, s.Store, want))
			}
		}
		return errors.Join(errs...)
	}())
	c.check("no sub-agent transcript is read as a session of its own", func() error {
		for _, s := range rep.Sessions {
			if s.Kind == sourceKind(agent) && (strings.Contains(s.Path, "/subagents/") || strings.Contains(filepath.Base(s.Path), "agent-") ||
				strings.HasPrefix(filepath.Base(s.Path), "agent_")) { // Cline's agent_*.messages.json
				return fmt.Errorf("%s listed as a session", strings.TrimPrefix(s.Path, home))
			}
		}
		return nil
	}())
}

// claudeFolder is Claude Code's folder name for a project path of ASCII characters shorter than
// 200: every character but a letter or a digit becomes "-".
func claudeFolder(path string) string {
	return regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(path, "-")
}

func checkDigest(c checker, sessions []digestSession, agent, project, today string) {
	person := []string{messages["lesson"], messages["resumed"], messages["delegate"], messages["commands"]}
	person = append(person, answerWords(agent)...) // answers.go
	var users []string
	var tools []string
	for _, s := range sessions {
		for _, t := range s.turns {
			switch t.role {
			case "user":
				users = append(users, t.text)
			case "tool":
				tools = append(tools, t.text)
			}
		}
	}
	c.check("the person's words reach the model", func() error {
		var errs []error
		for _, m := range person {
			if !slices.Contains(users, m) {
				errs = append(errs, fmt.Errorf("missing user turn %q", m))
			}
		}
		return errors.Join(errs...)
	}())
	c.check("only the person's words are the user's", func() error {
		var errs []error
		for _, u := range users {
			if !slices.Contains(person, u) {
				errs = append(errs, fmt.Errorf("user turn that the person did not type: %q", clip(u, 160)))
			}
		}
		return errors.Join(errs...)
	}())
	c.check("the resumed session continues the first", func() error {
		for _, s := range sessions {
			var has []string
			for _, t := range s.turns {
				if t.role == "user" {
					has = append(has, t.text)
				}
			}
			if slices.Contains(has, messages["lesson"]) && slices.Contains(has, messages["resumed"]) {
				return nil
			}
			if slices.Contains(has, messages["resumed"]) {
				return nil // resumed into a session file of its own, which is how some CLIs resume
			}
		}
		return errors.New("the resumed turn is in no session")
	}())
	c.check("sessions are dated the day they ran, in the project", func() error {
		// A run that goes past midnight (UTC) has sessions of the next day too: any day from the
		// run's first to this check's is a day they ran.
		ran := []string{today, time.Now().UTC().Format(time.DateOnly)}
		var errs []error
		for _, s := range sessions {
			if !slices.Contains(ran, s.date) {
				errs = append(errs, fmt.Errorf("session %s dated %q, want %s", s.id, s.date, strings.Join(slices.Compact(ran), " or ")))
			}
			if s.project != project {
				errs = append(errs, fmt.Errorf("session %s in project %q, want %q", s.id, s.project, project))
			}
			if s.source != sourceKind(agent) {
				errs = append(errs, fmt.Errorf("session %s from source %q, want %q", s.id, s.source, sourceKind(agent)))
			}
		}
		return errors.Join(errs...)
	}())
	c.check("the failed tool call is seen", func() error {
		for _, t := range tools {
			if strings.Contains(t, "No rule to make target") || strings.Contains(strings.ToLower(t), "exit code 2") ||
				strings.Contains(t, "exited with code 2") {
				return nil
			}
		}
		return fmt.Errorf("no tool error about make lint among %d tool lines: %q", len(tools), clip(strings.Join(tools, " | "), 300))
	}())
}

var (
	sessionRE = regexp.MustCompile(`(?s)<session id="([^"]*)" source="([^"]*)" project="([^"]*)" date="([^"]*)"[^>]*>\n(.*?)\n</session>`)
	turnRE    = regexp.MustCompile(`^(user|assistant|tool): `)
)

// readDigests parses the <session> elements of the consolidation requests listed in the file.
func readDigests(list string) ([]digestSession, error) {
	b, err := os.ReadFile(list)
	if err != nil {
		return nil, err
	}
	var out []digestSession
	files := strings.Fields(string(b))
	if len(files) == 0 {
		return nil, errors.New("dreamd sent no consolidation request")
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		_, js, _ := strings.Cut(string(body), "\n")
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if err := json.Unmarshal([]byte(js), &req); err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
		for _, m := range req.Messages {
			if m.Role != "user" {
				continue
			}
			for _, sm := range sessionRE.FindAllStringSubmatch(m.Content, -1) {
				s := digestSession{id: sm[1], source: sm[2], project: html.UnescapeString(sm[3]), date: sm[4]}
				for line := range strings.SplitSeq(sm[5], "\n") {
					if r := turnRE.FindStringSubmatch(line); r != nil {
						s.turns = append(s.turns, digestTurn{role: r[1], text: line[len(r[0]):]})
					} else if n := len(s.turns); n > 0 {
						s.turns[n-1].text += "\n" + strings.TrimPrefix(line, "  ")
					}
				}
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no <session> in the consolidation requests")
	}
	return out, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSpace(clip(s, 2000)), "\n", "\n    ")
}
