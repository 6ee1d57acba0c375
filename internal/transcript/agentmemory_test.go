package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const codexMemoryDoc = `# Task Group: shop release
scope: release and verification of the shop
applies_to: cwd=/src/shop; reuse_rule=safe for this repo

## Task 1: cut a release, outcome success

### rollout_summary_files

- rollout_summaries/2026-11-02-release.md (cwd=/src/shop, updated_at=2026-11-02T10:00:00+00:00, thread_id=019a)

### keywords

- release, tag, goreleaser

## Reusable knowledge

- Releases are cut with make release, never by pushing a tag by hand.
- The changelog is generated from the merged pull requests.

## Failures and how to do differently

- symptom: goreleaser fails on a dirty tree; fix: commit the generated files first.

# Task Group: habits across repositories
scope: how the person works everywhere
applies_to: cwd=unknown; reuse_rule=workflow-scoped

## User preferences

- The person wants terse answers.

# Task Group: blog
applies_to: cwd=/src/blog and /src/blog-drafts; reuse_rule=safe

## Reusable knowledge

- Hugo builds the blog; run hugo server -D to preview drafts.
`

const geminiMD = `# My rules

Use tabs.

## Gemini Added Memories
- The person's favourite shell is fish.
- The staging database is read-only on Fridays.

<!-- dreamd:begin dreamd user scope — managed by ` + "`dreamd link`" + `; edits inside are replaced -->
## Memory of the project /src/shop

- dreamd's own memory, never to come back as material.
<!-- dreamd:end dreamd user scope -->
`

// writeAt writes a file under root and gives it a fixed modification time.
func writeAt(t *testing.T, root, rel, text string, mtime time.Time) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	return p
}

func readMemory(t *testing.T, f File, from Cursor) Reading {
	t.Helper()
	r, err := agentMemory{}.Read(f, from)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Sessions {
		for _, turn := range s.Turns {
			if turn.Role != Assistant {
				t.Errorf("%s: an entry of another agent's memory is a %s turn, not an assistant one: %q", f.Path, turn.Role, turn.Text)
			}
		}
	}
	return r
}

func memoryTexts(r Reading) string {
	var b strings.Builder
	for _, s := range r.Sessions {
		for _, turn := range s.Turns {
			b.WriteString(turn.Text + "\n---\n")
		}
	}
	return b.String()
}

// TestAgentMemoryEntries: each agent's memory file gives its lessons, as assistant turns naming
// their origin, for the right project or the user store, and nothing else.
func TestAgentMemoryEntries(t *testing.T) {
	mtime := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	home := t.TempDir()
	writeAt(t, home, ".qwen/projects/-src-shop/chats/0001.jsonl", `{"type":"user","cwd":"/src/shop","sessionId":"s1"}`+"\n", mtime)
	writeAt(t, home, ".qwen/projects/-src-shop/memory/MEMORY.md", "- [Use pnpm](feedback_pnpm.md) — the package manager\n", mtime)
	writeAt(t, home, ".qwen/projects/-src-shop/memory/feedback_pnpm.md", "---\nname: use-pnpm\ndescription: the package manager of the shop\ntype: feedback\n---\n\nAlways use pnpm, never npm.\n", mtime)
	writeAt(t, home, ".qwen/projects/-tmp-x/memory/MEMORY.md", "- stray\n", mtime) // no chat names its directory
	writeAt(t, home, ".qwen/memories/MEMORY.md", "", mtime)                        // as Qwen Code 0.24.4 leaves it
	writeAt(t, home, ".qwen/memories/user_role.md", "---\nname: user-role\ntype: user\n---\nThe person is a data engineer.\n", mtime)
	writeAt(t, home, ".codex/memories/MEMORY.md", codexMemoryDoc, mtime)
	writeAt(t, home, ".codex/memories/memory_summary.md", "## User Profile\n\n- A data engineer new to Go.\n\n## What's in Memory\n\n- shop release: MEMORY.md\n", mtime)
	writeAt(t, home, ".gemini/GEMINI.md", geminiMD, mtime)
	t.Setenv("QWEN_HOME", "")
	t.Setenv("CODEX_HOME", "")

	const userStore = "/state/user"
	tests := []struct {
		name     string
		path     string // relative to home
		project  string // the file's project, "" for the user store's
		want     []string
		wantNot  []string
		wantDate time.Time
	}{
		{"qwen topic file", ".qwen/projects/-src-shop/memory/feedback_pnpm.md", "/src/shop",
			[]string{"Qwen Code's auto-memory (feedback: use-pnpm)", "Always use pnpm, never npm."}, nil, mtime},
		{"codex group of a project", ".codex/memories/MEMORY.md", "/src/shop",
			[]string{"Codex's memories (shop release — Reusable knowledge)", "make release", "changelog is generated", "goreleaser fails on a dirty tree"},
			[]string{"rollout_summaries", "release, tag, goreleaser", "terse", "Hugo", "applies_to", "scope:"},
			time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)},
		{"codex group of two projects", ".codex/memories/MEMORY.md", "/src/blog-drafts",
			[]string{"hugo server -D"}, []string{"make release"}, mtime},
		{"codex groups naming no project", ".codex/memories/MEMORY.md", "",
			[]string{"terse answers"}, []string{"make release", "Hugo"}, mtime},
		{"codex summary", ".codex/memories/memory_summary.md", "",
			[]string{"(User Profile)", "new to Go"}, []string{"shop release: MEMORY.md"}, mtime},
		{"qwen auto-memory of the person", ".qwen/memories/user_role.md", "",
			[]string{"Qwen Code's auto-memory (user: user-role)", "data engineer"}, nil, mtime},
		{"gemini save_memory", ".gemini/GEMINI.md", "",
			[]string{"Gemini CLI's save_memory", "favourite shell is fish", "read-only on Fridays"},
			[]string{"Use tabs", "dreamd's own memory", "Memory of the project", "dreamd:begin"}, mtime},
	}
	var files []File
	for _, src := range AgentMemorySources(home, userStore) {
		fs, skipped, err := agentMemory{}.Discover(src)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
		for _, s := range skipped {
			if !strings.Contains(s.Path, "-tmp-x") {
				t.Errorf("passed over %s: %s", s.Path, s.Reason)
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f *File
			for i := range files {
				if files[i].Path == filepath.Join(home, tt.path) && files[i].Project == tt.project && (tt.project != "") == (files[i].Store == "") {
					f = &files[i]
				}
			}
			if f == nil {
				t.Fatalf("%s for %q not listed; listed: %+v", tt.path, tt.project, files)
			}
			if _, project, _ := Peek(agentMemory{}, *f); project != tt.project {
				t.Errorf("peek project = %q, want %q", project, tt.project)
			}
			r := readMemory(t, *f, Cursor{})
			got := memoryTexts(r)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("%q should not be material:\n%s", w, got)
				}
			}
			if len(r.Sessions) != 1 || !r.Sessions[0].Ended.Equal(tt.wantDate) || r.Sessions[0].Kind != AgentMemoryKind {
				t.Errorf("sessions = %+v, want one %s session ended %v", r.Sessions, AgentMemoryKind, tt.wantDate)
			}
		})
	}
	// The MEMORY.md index of Qwen Code holds only links to its topic files: nothing to read.
	for _, f := range files {
		if strings.HasSuffix(f.Path, filepath.Join("-src-shop", "memory", "MEMORY.md")) {
			if r := readMemory(t, f, Cursor{}); len(r.Sessions) != 0 {
				t.Errorf("the index gave material: %s", memoryTexts(r))
			}
		}
	}
}

// TestAgentMemoryUserLevelWithoutUserStore: without a user store, the files that only hold what
// an agent keeps for every project are not read, and a configured GEMINI.md without a project is
// passed over with why.
func TestAgentMemoryUserLevelWithoutUserStore(t *testing.T) {
	home := t.TempDir()
	writeAt(t, home, ".gemini/GEMINI.md", geminiMD, time.Now())
	writeAt(t, home, ".codex/memories/memory_summary.md", "## User Profile\n\n- x\n", time.Now())
	t.Setenv("CODEX_HOME", "")
	if srcs := AgentMemorySources(home, ""); len(srcs) != 0 {
		t.Errorf("sources without a user store: %+v", srcs)
	}
	files, skipped, err := agentMemory{}.Discover(Source{Kind: AgentMemoryKind, Path: filepath.Join(home, ".gemini", "GEMINI.md")})
	if err != nil || len(files) != 0 || len(skipped) != 1 {
		t.Errorf("files %+v, skipped %+v, %v", files, skipped, err)
	}
	// Configured with its project, a project's GEMINI.md is read for that project.
	files, _, _ = agentMemory{}.Discover(Source{Kind: AgentMemoryKind, Path: filepath.Join(home, ".gemini", "GEMINI.md"), Project: "/src/shop"})
	if len(files) != 1 || files[0].Project != "/src/shop" {
		t.Fatalf("files = %+v", files)
	}
	if got := memoryTexts(readMemory(t, files[0], Cursor{})); !strings.Contains(got, "fish") {
		t.Errorf("the project's added memories are not read:\n%s", got)
	}
}

// TestAgentMemoryOnlyNewEntries: the file is rewritten in place; a pass sends only the entries it
// has not sent before, an entry rewritten counts as new, and an untouched file is not pending.
func TestAgentMemoryOnlyNewEntries(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	path := writeAt(t, dir, "GEMINI.md", "## Gemini Added Memories\n- one\n- two\n", t0)
	f := stat(t, path, "/src/shop")
	r := readMemory(t, f, Cursor{})
	if got := memoryTexts(r); !strings.Contains(got, "one") || !strings.Contains(got, "two") {
		t.Fatalf("first read:\n%s", got)
	}
	if from, pending, err := Resume(f, r.Cursor); err != nil || pending != 0 {
		t.Fatalf("an untouched file is pending: %d bytes from %+v (%v)", pending, from, err)
	}
	steps := []struct {
		doc        string
		want, gone []string
	}{
		{"## Gemini Added Memories\n- one\n- two\n- three\n", []string{"three"}, []string{"one", "two"}},
		{"## Gemini Added Memories\n- one\n- two, rewritten\n- three\n", []string{"two, rewritten"}, []string{"one", "three"}},
		{"## Gemini Added Memories\n- one\n- three\n", nil, []string{"one", "three"}},
	}
	cur := r.Cursor
	for i, st := range steps {
		path = writeAt(t, dir, "GEMINI.md", st.doc, t0.Add(time.Duration(i+1)*time.Hour))
		f = stat(t, path, "/src/shop")
		from, pending, err := Resume(f, cur)
		if err != nil || pending == 0 {
			t.Fatalf("step %d: a changed file is not pending (%v)", i, err)
		}
		r := readMemory(t, f, from)
		got := memoryTexts(r)
		for _, w := range st.want {
			if !strings.Contains(got, w) {
				t.Errorf("step %d: %q is not new material:\n%s", i, w, got)
			}
		}
		for _, w := range st.gone {
			if strings.Contains(got, "\n"+"- "+w+"\n") {
				t.Errorf("step %d: %q was sent again:\n%s", i, w, got)
			}
		}
		if len(st.want) == 0 && len(r.Sessions) != 0 {
			t.Errorf("step %d: a removal gave material:\n%s", i, got)
		}
		cur = r.Cursor
	}
}

// TestAgentMemoryIsOnlyRead: listing and reading never change another agent's files.
func TestAgentMemoryIsOnlyRead(t *testing.T) {
	home := t.TempDir()
	mtime := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	paths := []string{
		writeAt(t, home, ".codex/memories/MEMORY.md", codexMemoryDoc, mtime),
		writeAt(t, home, ".gemini/GEMINI.md", geminiMD, mtime),
	}
	t.Setenv("CODEX_HOME", "")
	for _, src := range AgentMemorySources(home, "/state/user") {
		files, _, _ := agentMemory{}.Discover(src)
		for _, f := range files {
			readMemory(t, f, Cursor{})
		}
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || !fi.ModTime().Equal(mtime) {
			t.Errorf("%s was touched: %v %v", p, fi.ModTime(), err)
		}
	}
	if data, _ := os.ReadFile(paths[1]); string(data) != geminiMD {
		t.Errorf("GEMINI.md changed:\n%s", data)
	}
}

func stat(t *testing.T, path, project string) File {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return File{Kind: AgentMemoryKind, Path: path, Size: fi.Size(), ModTime: fi.ModTime(), Project: project}
}

// FuzzAgentMemoryEntries: whatever a memory file holds, splitting it never panics and never
// yields a line of dreamd's own linked blocks.
func FuzzAgentMemoryEntries(f *testing.F) {
	f.Add(codexMemoryDoc)
	f.Add(geminiMD)
	f.Add("---\nname: x\n---\nbody\n")
	f.Add("## Gemini Added Memories\n<!-- dreamd:begin p\n- inside\n")
	f.Fuzz(func(t *testing.T, doc string) {
		for _, layout := range []memoryLayout{qwenProject, codexMemory, codexSummary, addedGemini, addedQwen} {
			for _, e := range memoryEntries(layout, doc, time.Time{}) {
				if strings.Contains(e.text, "<!-- dreamd:") && !strings.Contains(doc, "<!-- dreamd:end") {
					continue // an unterminated block cuts the rest of the file: nothing after it is read
				}
				_ = e.key()
			}
		}
	})
}

// TestCodexMemoryForTheUserStore: Codex's MEMORY.md is listed for the user store only when one of
// its task groups names no project.
func TestCodexMemoryForTheUserStore(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want int
	}{
		{"every group placed", "# Task Group: a\napplies_to: cwd=/src/a; reuse_rule=x\n\n## Reusable knowledge\n- x\n", 0},
		{"a group of unknown cwd", codexMemoryDoc, 1},
		{"a group without applies_to", "# Task Group: a\napplies_to: cwd=/src/a\n# Task Group: b\n## User preferences\n- terse\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeAt(t, t.TempDir(), "memories/MEMORY.md", tt.doc, time.Now())
			files, _, err := agentMemory{}.Discover(Source{Kind: AgentMemoryKind, Path: path, Store: "/state/user"})
			if err != nil || len(files) != tt.want {
				t.Errorf("listed for the user store: %+v (%v), want %d", files, err, tt.want)
			}
		})
	}
}
