package phases

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/transcript"
)

// claudeLine is one user record of a Claude Code transcript, in the given working directory.
func claudeLine(session, cwd, text string) string {
	return `{"type":"user","uuid":"` + session + `u","sessionId":"` + session + `","cwd":` + quote(cwd) +
		`,"timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":` + quote(text) + "}}\n"
}

// geminiDoc is a legacy Gemini CLI session naming its project in directories.
func geminiDoc(session, project, text string) string {
	return `{"sessionId":"` + session + `","directories":[` + quote(project) + `],"messages":[{"id":"m1","timestamp":"2026-11-20T10:00:00Z","type":"user","content":` + quote(text) + `}]}`
}

func quote(s string) string { return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"` }

// foldersOf runs Discover over the fixture with a gemini source beside its claude one, and maps
// each transcript's file name to the folder under the store root its store is in.
func foldersOf(t *testing.T, f *fixture) map[string]string {
	t.Helper()
	f.env.Sources = append(f.env.Sources, transcript.Source{Kind: "gemini", Path: filepath.Join(f.root, "gemini")})
	targets, skipped, err := Discover(f.env)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range skipped {
		if !strings.Contains(s.Reason, "does not exist") {
			t.Errorf("skipped %s: %s", s.Path, s.Reason)
		}
	}
	out := map[string]string{}
	for _, tg := range targets {
		rel, _ := filepath.Rel(f.env.StoreRoot, tg.Paths.Store)
		for _, tr := range tg.Files {
			out[filepath.Base(tr.File.Path)] = filepath.Dir(rel)
		}
	}
	return out
}

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) gemini(name, project, text string) {
	f.write("gemini/"+transcript.ProjectHash(project)+"/chats/session-"+name+".json", geminiDoc(name, project, text))
}

// TestRouteToTheFolderClaudeCodeLoads: every session goes to the store in the folder Claude Code
// loads for its project, whatever the path, and whichever agent wrote it.
func TestRouteToTheFolderClaudeCodeLoads(t *testing.T) {
	t.Run("non-ASCII", func(t *testing.T) {
		f := newFixture(t, nil)
		f.write("projects/-home-ana-caf-/c1.jsonl", claudeLine("c1", "/home/ana/café", "hi")) // as Claude Code 2.1.332 named it
		f.gemini("g1", "/home/ana/café", "hi")
		got := foldersOf(t, f)
		if got["c1.jsonl"] != "-home-ana-caf-" || got["session-g1.json"] != "-home-ana-caf-" {
			t.Errorf("routed %v, want both in -home-ana-caf-", got)
		}
	})
	t.Run("long path", func(t *testing.T) {
		f := newFixture(t, nil)
		deep := "/home/ana/src/" + strings.Repeat("deep-project-folder-", 12) + "x"
		f.gemini("g1", deep, "hi")
		if got, want := foldersOf(t, f)["session-g1.json"], slug.Project(deep); got != want || len(want) != 207 {
			t.Errorf("routed to %q, want Claude Code's cut and hashed %q", got, want)
		}
	})
	t.Run("long path in a folder an older Claude Code hashed otherwise", func(t *testing.T) {
		f := newFixture(t, nil)
		deep := "/home/ana/src/" + strings.Repeat("deep-project-folder-", 12) + "x"
		older := slug.Project(deep)[:slug.ClaudeMaxFolder] + "-1234567890"
		os.MkdirAll(filepath.Join(f.root, "projects", older), 0o755)
		f.gemini("g1", deep, "hi")
		if got := foldersOf(t, f)["session-g1.json"]; got != older {
			t.Errorf("routed to %q, want the folder Claude Code already keeps the project in, %q", got, older)
		}
	})
	t.Run("Windows drive letter", func(t *testing.T) {
		f := newFixture(t, nil)
		f.gemini("g1", `c:\Users\ana\shop`, "hi")
		if got := foldersOf(t, f)["session-g1.json"]; got != "C--Users-ana-shop" {
			t.Errorf("routed to %q, want C--Users-ana-shop", got)
		}
		f = newFixture(t, nil)
		os.MkdirAll(filepath.Join(f.root, "projects", "c--Users-ana-shop"), 0o755)
		f.gemini("g1", `C:\Users\ana\shop`, "hi")
		if got := foldersOf(t, f)["session-g1.json"]; got != "c--Users-ana-shop" {
			t.Errorf("routed to %q, want the existing c--Users-ana-shop", got)
		}
	})
	t.Run("a session started inside the project", func(t *testing.T) {
		f := newFixture(t, nil)
		repo := filepath.Join(f.root, "src", "shop")
		os.MkdirAll(filepath.Join(repo, ".git"), 0o755)
		sub := filepath.Join(repo, "pkg", "sub")
		// Claude Code 2.1.332 files it by its cwd and keeps the memory in the repository's folder.
		f.write("projects/"+slug.Project(sub)+"/c1.jsonl", claudeLine("c1", sub, "hi"))
		if got := foldersOf(t, f)["c1.jsonl"]; got != slug.Project(repo) {
			t.Errorf("routed to %q, want the repository's %q", got, slug.Project(repo))
		}
	})
	t.Run("a project that moved", func(t *testing.T) {
		f := newFixture(t, nil)
		// Claude Code filed the sessions from before and after the move under the old folder.
		f.write("projects/-home-ana-old-shop/c1.jsonl", claudeLine("c1", "/home/ana/old-shop", "hi"))
		f.write("projects/-home-ana-old-shop/c2.jsonl", claudeLine("c2", "/home/ana/work/shop", "hi"))
		f.gemini("g1", "/home/ana/work/shop", "hi")
		got := foldersOf(t, f)
		for _, name := range []string{"c1.jsonl", "c2.jsonl", "session-g1.json"} {
			if got[name] != "-home-ana-old-shop" {
				t.Errorf("%s routed to %q, want the one folder Claude Code loads, -home-ana-old-shop (all: %v)", name, got[name], got)
			}
		}
	})
}

// TestDeepStoreStateName: a store's own state folder stays a valid file name however deep the
// store's path, and a short one keeps the name it always had.
func TestDeepStoreStateName(t *testing.T) {
	env := &Env{StateDir: "/state"}
	if got := StorePaths(env, "/home/ana/.claude/projects/-home-ana-shop/memory").State; got != "/state/stores/-home-ana--claude-projects--home-ana-shop-memory" {
		t.Errorf("state = %q: an existing store's state must keep its name", got)
	}
	deep := "/home/ana/.claude/projects/" + slug.Project("/home/ana/"+strings.Repeat("très-long/", 40)) + "/memory"
	if name := filepath.Base(StorePaths(env, deep).State); len(name) > 255-len(".lock") {
		t.Errorf("state folder name is %d bytes", len(name))
	}
}

// TestLostTranscripts: a transcript whose file is gone before it was read to its end is lost,
// unless a kept link stands in for it; one read to its end is not.
func TestLostTranscripts(t *testing.T) {
	dir := t.TempDir()
	gone := func(name string) string { return filepath.Join(dir, name) }
	kept := gone("kept.jsonl")
	cursors := Cursors{
		gone("half-read.jsonl"): {Size: 900, Offset: 400},
		gone("capped.jsonl"):    {Size: 400, Offset: 400, More: true},
		gone("read.jsonl"):      {Size: 400, Offset: 400},
		kept:                    {Size: 900, Offset: 400},
	}
	target := Target{Files: []Tracked{{File: transcript.File{Path: kept, Kept: gone("link")}}}}
	if got := Lost(target, cursors); !slices.Equal(got, []string{gone("capped.jsonl"), gone("half-read.jsonl")}) {
		t.Errorf("Lost = %q", got)
	}
}

// TestMovedProjectRecorded: Claude Code 2.1.332, its project moved from src/old-shop to
// src/new-shop (testdata/claude-2.1.332-moved, trimmed to the user and assistant records): the
// session resumed by id after the move was appended to the old folder's transcript, its new
// records carrying the new cwd; `claude -c` and a fresh session after the move went to the new
// folder. Each transcript stays in the store of the folder Claude Code filed it in: the resumed
// session is not split over two stores.
func TestMovedProjectRecorded(t *testing.T) {
	f := newFixture(t, nil)
	copyDirTo(t, filepath.Join("testdata", "claude-2.1.332-moved"), f.env.StoreRoot)
	got := foldersOf(t, f)
	want := map[string]string{
		"25630f4e-e8f6-48b4-9caa-64a398112722.jsonl": "-home-ana-src-old-shop",
		"90e72e0e-0ac9-40fb-acd3-316d345d07de.jsonl": "-home-ana-src-new-shop",
		"f3cf6181-9aab-4e57-b5fd-775875da46c2.jsonl": "-home-ana-src-new-shop",
	}
	for name, folder := range want {
		if got[name] != folder {
			t.Errorf("%s routed to %q, want %q", name, got[name], folder)
		}
	}
}

func copyDirTo(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
