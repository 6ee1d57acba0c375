package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// rels returns the files' and skipped paths relative to root, slash-separated.
func rels(t *testing.T, root string, files []File, skipped []Skipped) (kept, passed []string) {
	t.Helper()
	rel := func(p string) string {
		r, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	for _, f := range files {
		kept = append(kept, rel(f.Path))
	}
	for _, s := range skipped {
		if s.Reason == "" {
			t.Errorf("%s skipped without a reason", s.Path)
		}
		passed = append(passed, rel(s.Path))
	}
	return kept, passed
}

func TestDiscover(t *testing.T) {
	tests := []struct {
		kind, root    string
		kept, skipped []string
	}{
		{"claude", "testdata/claude",
			[]string{"-home-ana-shop/2ff46cd5-f4e7-4724-bb20-579dae7956ea.jsonl"},
			[]string{"-home-ana-shop/2ff46cd5-f4e7-4724-bb20-579dae7956ea/subagents/agent-a1b2c3.jsonl", "-home-ana-shop/agent-d4e5f6.jsonl"}},
		{"codex", "testdata/codex",
			[]string{"2026/05/15/rollout-2026-05-15T09-00-00-0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b.jsonl"},
			[]string{"history.jsonl"}},
		{"gemini", "testdata/gemini",
			[]string{geminiHash + "/chats/session-2026-05-14T09-30-1a2b3c4d.json", geminiHash + "/chats/session-2026-05-15T10-00-7c1e9a2b.jsonl"},
			[]string{geminiHash + "/chats/session-2026-05-15T10-00-7c1e9a2b.json"}},
		{"aider", "testdata/aider", []string{"shop/.aider.chat.history.md"}, nil},
		{"markdown", "testdata/markdown",
			[]string{".harness/sessions/2026-05-15-08h00.md", ".harness/sessions/notes.md"}, nil},
		{"chat", "testdata/chat", []string{"pairing.jsonl", "support.json"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			a, err := New(tt.kind)
			if err != nil {
				t.Fatal(err)
			}
			files, skipped, err := a.Discover(Source{Kind: tt.kind, Path: tt.root, Project: "/configured"})
			if err != nil {
				t.Fatal(err)
			}
			kept, passed := rels(t, tt.root, files, skipped)
			if !slices.Equal(kept, tt.kept) || !slices.Equal(passed, tt.skipped) {
				t.Errorf("kept %q, skipped %q; want %q, %q", kept, passed, tt.kept, tt.skipped)
			}
			for _, f := range files {
				if f.Kind != tt.kind || f.Project != "/configured" || f.Size <= 0 || f.ModTime.IsZero() {
					t.Errorf("file %+v: want kind, configured project, size and mtime set", f)
				}
			}
		})
	}
}

func TestDiscoverFixtures(t *testing.T) {
	needFixtures(t)
	files, skipped, err := claude{}.Discover(Source{Path: fixtures})
	if err != nil {
		t.Fatal(err)
	}
	kept, passed := rels(t, fixtures, files, skipped)
	// Top-level files are sessions too: a source may point at one project directory.
	wantKept := []string{
		"dag_compact_after_rewind.jsonl",
		"edge_cases.jsonl",
		"minimal_showcase/55550000-0000-4000-8000-000000000001.jsonl",
		"minimal_showcase/55550000-0000-4000-8000-000000000002.jsonl",
		"minimal_showcase/55550000-0000-4000-8000-000000000003.jsonl",
		"representative_messages.jsonl",
		"sidechain_integrated.jsonl",
		"system_reminder.jsonl",
	}
	if !slices.Equal(kept, wantKept) {
		t.Errorf("claude kept %q, want %q", kept, wantKept)
	}
	for _, sub := range []string{"agent-showcol1.jsonl", "agent-showcol2.jsonl"} {
		if !slices.Contains(passed, "minimal_showcase/55550000-0000-4000-8000-000000000001/subagents/"+sub) {
			t.Errorf("subagent transcript %s not reported as skipped: %q", sub, passed)
		}
	}
	files, _, err = codex{}.Discover(Source{Path: filepath.Join(fixtures, "codex")})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 5 {
		t.Errorf("codex found %d rollouts, want 5 (dated, flat and malformed)", len(files))
	}
}

func TestDiscoverPassesOver(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"shop/.aider.chat.history.md",
		"shop/node_modules/pkg/.aider.chat.history.md",
		"shop/.git/.aider.chat.history.md",
		"shop/sub/deeper/.aider.chat.history.md",
		"shop/.aider.input.history",
	} {
		writeFile(t, "aider", filepath.Join(root, p), []byte("# aider chat started at 2026-05-15 08:00:00\n"), "")
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	files, skipped, err := aider{}.Discover(Source{Path: link})
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := rels(t, link, files, skipped)
	want := []string{"shop/.aider.chat.history.md", "shop/sub/deeper/.aider.chat.history.md"}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %q, want %q (not under .git or node_modules, reported under the configured path)", kept, want)
	}
}

func TestDiscoverMissingSource(t *testing.T) {
	for _, kind := range Kinds() {
		a, _ := New(kind)
		missing := filepath.Join(t.TempDir(), "nope")
		files, skipped, err := a.Discover(Source{Kind: kind, Path: missing})
		if err != nil || len(files) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Reason, "does not exist") {
			t.Errorf("%s: Discover(missing) = %v, %v, %v; want one skipped entry, no error", kind, files, skipped, err)
		}
	}
}

func TestDiscoverSingleFile(t *testing.T) {
	f := writeFile(t, "chat", filepath.Join(t.TempDir(), "one.jsonl"), []byte(chatLine("user", "hi")), "")
	files, _, err := chat{}.Discover(Source{Path: f.Path, Project: "/p"})
	if err != nil || len(files) != 1 || files[0].Path != f.Path {
		t.Errorf("Discover(a file) = %v, %v; want that file", files, err)
	}
}

func TestNew(t *testing.T) {
	for _, kind := range Kinds() {
		a, err := New(kind)
		if err != nil || a.Kind() != kind {
			t.Errorf("New(%q) = %v, %v", kind, a, err)
		}
	}
	if _, err := New("cursor"); err == nil || !strings.Contains(err.Error(), `"cursor"`) || !strings.Contains(err.Error(), "claude") {
		t.Errorf("New(unknown) error = %v, want it to name the kind and the known ones", err)
	}
}

func TestDiscoverListsAFIFO(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "-home-ana-shop")
	os.MkdirAll(proj, 0o755)
	if err := syscall.Mkfifo(filepath.Join(proj, "aaaa1111-0000-4000-8000-000000000001.jsonl"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	files, skipped, err := claude{}.Discover(Source{Kind: "claude", Path: dir})
	if err != nil || len(files) != 0 || len(skipped) != 1 || !strings.Contains(skipped[0].Reason, "not a regular file") {
		t.Errorf("files %v, skipped %v, err %v", files, skipped, err)
	}
}
