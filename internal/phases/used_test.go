package phases

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestUsedIn: a tool call naming a topic file of the store (its whole path, or memory/<name>.md
// for a store in a folder named memory) marks it used on its session's day; other files, other
// folders, the index and plain conversation do not.
func TestUsedIn(t *testing.T) {
	const claudeDir = "/home/u/.claude/projects/-home-u-shop/memory"
	const fixedDir = "/srv/memories/shop"
	tests := []struct {
		name string
		dir  string
		role transcript.Role
		text string
		want []string
	}{
		{"Claude Code Read of the topic file", claudeDir, transcript.Tool, "Read: " + claudeDir + "/deploy-steps.md", []string{"deploy-steps"}},
		{"cat through ~", claudeDir, transcript.Tool, "Bash: cat ~/.claude/projects/-home-u-shop/memory/deploy-steps.md | head", []string{"deploy-steps"}},
		{"relative memory/ path", claudeDir, transcript.Tool, "shell: cat memory/deploy-steps.md", []string{"deploy-steps"}},
		{"quoted path", claudeDir, transcript.Tool, `shell: cat 'memory/deploy-steps.md'`, []string{"deploy-steps"}},
		{"two files in one call", claudeDir, transcript.Tool, "Bash: cat memory/deploy-steps.md memory/db-port.md", []string{"db-port", "deploy-steps"}},
		{"fixed store by its path", fixedDir, transcript.Tool, "read_file: " + fixedDir + "/db-port.md", []string{"db-port"}},
		{"fixed store: memory/ tail is not it", fixedDir, transcript.Tool, "shell: cat memory/db-port.md", nil},
		{"another folder", claudeDir, transcript.Tool, "Read: /home/u/shop/docs/deploy-steps.md", nil},
		{"a folder merely ending in memory", claudeDir, transcript.Tool, "Read: /home/u/shop/notmemory/deploy-steps.md", nil},
		{"another extension", claudeDir, transcript.Tool, "Read: " + claudeDir + "/deploy-steps.mdx", nil},
		{"the index is not use", claudeDir, transcript.Tool, "Read: " + claudeDir + "/MEMORY.md", nil},
		{"not a memory of the store", claudeDir, transcript.Tool, "Read: " + claudeDir + "/gone.md", nil},
		{"said, not done", claudeDir, transcript.User, "look at memory/deploy-steps.md", nil},
	}
	mems := []*store.Memory{mem("deploy-steps", "project"), mem("db-port", "reference")}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sessions := []extract.Session{{ID: "s1", Date: day("2026-11-20"), Turns: []extract.Turn{{Role: tt.role, Text: tt.text}}}}
			got := usedIn(sessions, tt.dir, mems)
			if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, tt.want) {
				t.Fatalf("used %v, want %v", names, tt.want)
			}
			for name, d := range got {
				if !d.Equal(day("2026-11-20")) {
					t.Errorf("%s used on %v, want the session's day", name, d)
				}
			}
		})
	}
}

// TestUsedInLatestSession: a memory read in several sessions is dated by the latest.
func TestUsedInLatestSession(t *testing.T) {
	read := []extract.Turn{{Role: transcript.Tool, Text: "Read: /s/memory/a.md"}}
	sessions := []extract.Session{{ID: "new", Date: day("2026-11-20"), Turns: read}, {ID: "old", Date: day("2026-10-01"), Turns: read}}
	if got := usedIn(sessions, "/s/memory", []*store.Memory{mem("a", "project")}); !got["a"].Equal(day("2026-11-20")) {
		t.Errorf("a used on %v, want 2026-11-20", got["a"])
	}
}

// TestMarkUsed: recall's marks are kept in the store's state, the later day winning, and read back.
func TestMarkUsed(t *testing.T) {
	p := store.Paths{Store: t.TempDir(), State: t.TempDir()}
	if u, err := LoadUsed(p); err != nil || len(u) != 0 {
		t.Fatalf("a store never used: %v, %v", u, err)
	}
	if err := MarkUsed(p, []string{"a", "b"}, day("2026-11-20")); err != nil {
		t.Fatal(err)
	}
	if err := MarkUsed(p, []string{"a"}, day("2026-11-01")); err != nil {
		t.Fatal(err)
	}
	u, err := LoadUsed(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Used{"a": "2026-11-20", "b": "2026-11-20"}); !maps.Equal(u, want) {
		t.Errorf("used %v, want %v", u, want)
	}
}

// TestDecideUnused: with prune.unused_days, a memory nobody learnt, confirmed, updated or used for
// that long is retired as unused and weighs on the guard; a used, pinned, hand-written or touched
// one stays.
func TestDecideUnused(t *testing.T) {
	today := day("2026-11-26")
	old := func(name string, edit ...func(*store.Memory)) *store.Memory {
		m := mem(name, "project")
		m.Created, m.Updated, m.Learnt, m.Confirmed = "2026-06-01", "2026-06-01", "2026-05-20", "2026-06-01"
		m.Sources = []string{"claude:s0"}
		for _, e := range edit {
			e(m)
		}
		return m
	}
	reinforce := extract.Operation{Action: extract.Reinforce, Name: "a", Reason: "said again", Evidence: []string{"s1"}}
	tests := []struct {
		name    string
		days    int
		cur     []*store.Memory
		used    Used
		ops     []extract.Operation
		force   bool
		retired []string
		refused bool
	}{
		{"unused ages out", 90, []*store.Memory{old("a"), old("b"), old("c"), old("d")}, Used{"b": "2026-11-20", "c": "2026-11-01", "d": "2026-10-01"}, nil, false, []string{"a"}, false},
		{"off by default", 0, []*store.Memory{old("a"), old("b"), old("c"), old("d")}, nil, nil, false, nil, false},
		{"used within the window stays", 90, []*store.Memory{old("a")}, Used{"a": "2026-09-01"}, nil, false, nil, false},
		{"confirmed recently stays", 90, []*store.Memory{old("a", func(m *store.Memory) { m.Confirmed = "2026-11-01" })}, nil, nil, false, nil, false},
		{"pinned stays", 90, []*store.Memory{old("a", func(m *store.Memory) { m.Pinned = true })}, nil, nil, false, nil, false},
		{"hand-written stays", 90, []*store.Memory{old("a", func(m *store.Memory) { m.Sources = nil })}, nil, nil, false, nil, false},
		{"touched this pass stays", 90, []*store.Memory{old("a"), old("b"), old("c"), old("d")}, Used{"b": "2026-11-20", "c": "2026-11-20", "d": "2026-11-20"}, []extract.Operation{reinforce}, false, nil, false},
		{"the guard refuses too many", 90, []*store.Memory{old("a"), old("b"), old("c"), old("d")}, nil, nil, false, []string{"a", "b", "c", "d"}, true},
		{"--force lets them go", 90, []*store.Memory{old("a"), old("b"), old("c"), old("d")}, nil, nil, true, []string{"a", "b", "c", "d"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &Env{Limits: memory.DefaultLimits, MaxRetireFraction: 0.25, UnusedDays: tt.days}
			sessions := []extract.Session{{ID: "s1", Source: "claude", Date: today}}
			d := Decide(env, &store.Store{Dir: "/s", Memories: tt.cur}, tt.ops, nil, sessions, tt.used, today, tt.force)
			var retired []string
			for _, r := range d.Retired {
				if r.Reason != store.Unused {
					t.Errorf("%s retired as %s, want %s", r.Name, r.Reason, store.Unused)
				}
				if r.Content == nil {
					t.Errorf("%s retired without its content to archive", r.Name)
				}
				retired = append(retired, r.Name)
			}
			if !slices.Equal(retired, tt.retired) {
				t.Errorf("retired %v, want %v", retired, tt.retired)
			}
			if d.Lost != len(tt.retired) || d.Lost != weighedIn(d.Retired) {
				t.Errorf("lost %d (retirements weigh %d), want %d", d.Lost, weighedIn(d.Retired), len(tt.retired))
			}
			if (d.Refusal != nil) != tt.refused || d.Refusal != nil && !errors.Is(d.Refusal, ErrRefused) {
				t.Errorf("refusal %v, want refused %v", d.Refusal, tt.refused)
			}
			for _, m := range d.Next {
				if slices.Contains(tt.retired, m.Name) {
					t.Errorf("%s retired but still in the next store", m.Name)
				}
			}
		})
	}
}

// FuzzTopicFilesIn: any tool line is scanned without a panic, and every name found is one the
// line names as a <name>.md file.
func FuzzTopicFilesIn(f *testing.F) {
	f.Add("Read: /s/memory/a.md", "/s/memory", "memory")
	f.Add(`cat "memory/a.md" memory/.md /x.md.md`, "/s", "")
	f.Add(`\memory\b.mdx.md`, "/s/memory", "memory")
	f.Fuzz(func(t *testing.T, text, dir, tail string) {
		for _, name := range topicFilesIn(text, dir, tail) {
			if name == "" || !strings.Contains(strings.ReplaceAll(text, `\`, "/"), "/"+name+".md") {
				t.Errorf("%q found in %q", name, text)
			}
		}
	})
}

func TestFollowedIn(t *testing.T) {
	lint := mem("lint-first", "feedback")
	lint.Body = "Run `make lint` before every commit."
	build := mem("web-build", "project")
	build.Description = "The web app builds with `pnpm run build`"
	tests := []struct {
		name string
		role transcript.Role
		text string
		want []string
	}{
		{"the make target run", transcript.Tool, "Bash: make lint", []string{"lint-first"}},
		{"after a cd, trimmed", transcript.Tool, "Bash: cd web && make lint 2>&1 | tail -5", []string{"lint-first"}},
		{"the script through another spelling", transcript.Tool, "shell: pnpm build", []string{"web-build"}},
		{"npm run", transcript.Tool, "run_shell_command: npm run build", []string{"web-build"}},
		{"another target", transcript.Tool, "Bash: make test", nil},
		{"a package manager's own command", transcript.Tool, "Bash: pnpm add build", nil},
		{"make with a flag", transcript.Tool, "Bash: make -C web lint", nil},
		{"a word of a longer command", transcript.Tool, "Bash: echo make lint", nil},
		{"said, not run", transcript.User, "Bash: make lint", nil},
		{"prose, not a tool call", transcript.Tool, "we should make lint pass", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sessions := []extract.Session{{ID: "s1", Date: day("2026-11-20"), Turns: []extract.Turn{{Role: tt.role, Text: tt.text}}}}
			got := followedIn(sessions, []*store.Memory{lint, build})
			if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, tt.want) {
				t.Fatalf("followed %v, want %v", names, tt.want)
			}
		})
	}
}
