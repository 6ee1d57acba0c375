package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The sessions scripts/agents/run.sh --record kept from the real agent CLIs, driven against a fake
// model endpoint: testdata/agents/<agent>-<version>/ holds the agent's own directory as the CLI
// wrote it (trimmed of its vendor prompt text, with placeholder paths) and facts.json, what the
// sessions were. testdata/agents/README.md says how they are made.

// agentFacts is facts.json of a recording.
type agentFacts struct {
	Project  string `json:"project"`
	Date     string `json:"date"`
	Lesson   string `json:"lesson"`   // its session's `make lint` fails
	Resumed  string `json:"resumed"`  // typed into the lesson's session, resumed
	Delegate string `json:"delegate"` // a new session, which hands work to a sub-agent
	Subagent string `json:"subagent"` // the sub-agent's prompt: never the person's words
	Commands string `json:"commands"` // a new session that runs the frontend tests (agents_commands_test.go)
	Question string `json:"question"` // a new session where the agent asks a question (agents_answers_test.go)
	Answer   string `json:"answer"`   // the person's answer to it, as the user turn dreamd reads
}

// agentSourceDirs is where, under a recording, each agent's sessions are: its source path.
var agentSourceDirs = map[string]string{
	"claude":  ".claude/projects",
	"codex":   ".codex/sessions",
	"gemini":  ".gemini/tmp",
	"cline":   ".cline/data",
	"qwen":    ".qwen/projects",
	"copilot": ".copilot/session-state",
}

// agentGaps are checks the adapters fail on a recording today, keyed "<recording>/<check>", each
// naming the missing behaviour and who owns it. The check skips instead of failing, and fails once
// the gap is gone so that its entry is removed.
var agentGaps = map[string]string{}

// TestRecordedAgents reads each recording through the real adapter and asserts what
// scripts/agents/run.sh asserts of dreamd's reading of the live CLIs: the person's words and only
// them as the user's, the resumed turn in its session, sub-agents not read as the person, the
// project and the day, the failed tool call.
func TestRecordedAgents(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "agents", "*-*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no recordings under testdata/agents (%v)", err)
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		agent, _, _ := strings.Cut(name, "-")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, "facts.json"))
			if err != nil {
				t.Fatal(err)
			}
			var fx agentFacts
			if err := json.Unmarshal(b, &fx); err != nil {
				t.Fatal(err)
			}
			sessions, skipped := readRecording(t, agent, filepath.Join(dir, filepath.FromSlash(agentSourceDirs[agent])))
			for _, c := range agentChecks(fx, sessions, skipped) {
				t.Run(c.name, func(t *testing.T) {
					gap, known := agentGaps[name+"/"+c.name]
					switch {
					case c.err != nil && known:
						t.Skipf("known gap: %s (%v)", gap, c.err)
					case c.err != nil:
						t.Error(c.err)
					case known:
						t.Errorf("the known gap %q no longer occurs: remove it from agentGaps", gap)
					}
				})
			}
		})
	}
}

// readRecording discovers and reads a recording's source directory whole.
func readRecording(t *testing.T, kind, path string) ([]Session, []Skipped) {
	t.Helper()
	a, err := New(kind)
	if err != nil {
		t.Fatal(err)
	}
	files, skipped, err := a.Discover(Source{Kind: kind, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	var sessions []Session
	for _, f := range files {
		sessions = append(sessions, mustRead(t, f, Cursor{}).Sessions...)
	}
	return sessions, skipped
}

type agentCheck struct {
	name string
	err  error
}

func agentChecks(fx agentFacts, sessions []Session, skipped []Skipped) []agentCheck {
	person := []string{fx.Lesson, fx.Resumed, fx.Delegate}
	if fx.Commands != "" {
		person = append(person, fx.Commands)
	}
	if fx.Question != "" {
		person = append(person, fx.Question, fx.Answer)
	}
	var users []string
	for _, s := range sessions {
		for _, turn := range s.Turns {
			if turn.Role == User {
				users = append(users, turn.Text)
			}
		}
	}
	check := func(name string, err error) agentCheck { return agentCheck{name, err} }
	return append(append(commandChecks(fx, sessions), answerChecks(fx, sessions)...), []agentCheck{
		check("every session file is read", func() error {
			var passed []string
			for _, s := range skipped {
				if !strings.Contains(s.Reason, "sub-agent") && !strings.Contains(s.Reason, "subagent") {
					passed = append(passed, filepath.Base(s.Path)+": "+s.Reason)
				}
			}
			if len(passed) > 0 {
				return fmt.Errorf("files passed over: %q", passed)
			}
			return nil
		}()),
		check("the person's words", func() error {
			var missing []string
			for _, m := range person {
				if !slices.Contains(users, m) {
					missing = append(missing, m)
				}
			}
			if len(missing) > 0 {
				return fmt.Errorf("user turns %q lack %q", users, missing)
			}
			return nil
		}()),
		check("only the person's words", func() error {
			var other []string
			for _, u := range users {
				if !slices.Contains(person, u) {
					other = append(other, clip(u, 120))
				}
			}
			if len(other) > 0 {
				return fmt.Errorf("user turns the person did not type: %q", other)
			}
			return nil
		}()),
		check("the sub-agent is not the person", func() error {
			for _, s := range sessions {
				if strings.Contains(filepath.ToSlash(s.Path), "/subagents/") {
					return fmt.Errorf("sub-agent transcript %s read as a session", filepath.Base(s.Path))
				}
				for _, turn := range s.Turns {
					if turn.Role == User && strings.Contains(turn.Text, fx.Subagent) {
						return fmt.Errorf("session %s: the sub-agent's prompt is a user turn", s.ID)
					}
				}
			}
			return nil
		}()),
		check("the resumed session", func() error {
			for _, s := range sessions {
				has := func(text string) bool {
					return slices.ContainsFunc(s.Turns, func(turn Turn) bool { return turn.Role == User && turn.Text == text })
				}
				if has(fx.Lesson) && has(fx.Resumed) {
					return nil
				}
			}
			return fmt.Errorf("no session holds both %q and %q", fx.Lesson, fx.Resumed)
		}()),
		check("project and date", func() error {
			if len(sessions) == 0 {
				return fmt.Errorf("no session read")
			}
			var bad []string
			for _, s := range sessions {
				if s.Project != fx.Project {
					bad = append(bad, fmt.Sprintf("%s: project %q", s.ID, s.Project))
				}
				if day := s.Started.UTC().Format("2006-01-02"); day != fx.Date {
					bad = append(bad, fmt.Sprintf("%s: started %s", s.ID, day))
				}
			}
			if len(bad) > 0 {
				return fmt.Errorf("want project %q on %s: %q", fx.Project, fx.Date, bad)
			}
			return nil
		}()),
		check("the failed tool call", func() error {
			var tools []string
			for _, s := range sessions {
				for _, turn := range s.Turns {
					if turn.Role != Tool {
						continue
					}
					if turn.IsError && (strings.Contains(turn.Text, "No rule to make target") || strings.Contains(strings.ToLower(turn.Text), "code 2")) {
						return nil
					}
					tools = append(tools, fmt.Sprintf("%q (error %v)", clip(turn.Text, 80), turn.IsError))
				}
			}
			return fmt.Errorf("no tool error of make lint among the tool turns %v", tools)
		}()),
	}...)
}
