package transcript

import (
	"fmt"
	"io/fs"
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
			[]string{"-home-ana--claude-mem-observer-sessions/5e0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b.jsonl", "-home-ana-shop/2ff46cd5-f4e7-4724-bb20-579dae7956ea/subagents/agent-a1b2c3.jsonl", "-home-ana-shop/agent-d4e5f6.jsonl"}},
		{"codex", "testdata/codex",
			[]string{"2026/05/15/rollout-2026-05-15T09-00-00-0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b.jsonl"},
			[]string{"history.jsonl"}},
		{"gemini", "testdata/gemini",
			[]string{geminiHash + "/chats/session-2026-05-14T09-30-1a2b3c4d.json", geminiHash + "/chats/session-2026-05-15T10-00-7c1e9a2b.jsonl", geminiHash + "/logs.json"},
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

// walkDiscover is discover as it was written over filepath.WalkDir, one stat by path a file:
// the reference for the order of discover's lists, which the quiet mark digests.
func walkDiscover(kind string, src Source, keep classify) ([]File, []Skipped, error) {
	root := src.Path
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, nil, err
	}
	var files, regular []File
	var skipped, failed []Skipped
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		rel, relErr := filepath.Rel(real, p)
		if relErr != nil {
			return relErr
		}
		path := filepath.Join(root, rel)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if p == real {
				return err
			}
			skipped = append(skipped, Skipped{Path: path, Reason: err.Error()})
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != real && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		kept := func() bool {
			ok, why := keep(rel, p)
			if !ok && why != "" {
				skipped = append(skipped, Skipped{Path: path, Reason: why})
			}
			return ok
		}
		info, err := os.Lstat(p)
		if d.Type().IsRegular() {
			switch {
			case !kept():
			case err != nil:
				failed = append(failed, Skipped{Path: path, Reason: err.Error()})
			default:
				regular = append(regular, File{Kind: kind, Path: path, Size: info.Size(), ModTime: info.ModTime(), Project: src.Project, Store: src.Store})
			}
			return nil
		}
		if info, err = os.Stat(p); err != nil {
			skipped = append(skipped, Skipped{Path: path, Reason: err.Error()})
			return nil
		}
		switch {
		case info.Mode().IsRegular():
			if kept() {
				files = append(files, File{Kind: kind, Path: path, Size: info.Size(), ModTime: info.ModTime(), Project: src.Project, Store: src.Store})
			}
		case !info.IsDir():
			if ok, _ := keep(rel, p); ok {
				skipped = append(skipped, Skipped{Path: path, Reason: "not a regular file (" + info.Mode().Type().String() + "), left alone"})
			}
		}
		return nil
	})
	return append(files, regular...), append(skipped, failed...), err
}

// TestDiscoverWalkOrder lists a tree whose names sort around the path separator, with
// subdirectories and symlinks among more files than one goroutine stats, in the order of a
// lexical walk.
func TestDiscoverWalkOrder(t *testing.T) {
	root := t.TempDir()
	session := func(i int) string { return fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", i) }
	var paths []string
	for _, dir := range []string{"p", "p-q", "p.q", "p0", "p/p", "P", "node_modules", ".git", "big/x/.git"} {
		paths = append(paths, dir+"/"+session(1), dir+"/agent-a.jsonl", dir+"/notes.txt")
	}
	paths = append(paths, "p-a.jsonl", "p.jsonl", "agent-top.jsonl")
	for i := range 2*statChunk + 10 {
		paths = append(paths, "big/"+session(i))
		if i%300 == 7 {
			paths = append(paths, "big/"+strings.TrimSuffix(session(i), ".jsonl")+"/subagents/agent-b.jsonl")
		}
	}
	for i, p := range paths {
		writeFile(t, "chat", filepath.Join(root, p), []byte(strings.Repeat("x", i%17+1)), "")
	}
	target := filepath.Join(root, "p", session(1))
	links := map[string]string{"big/00000600-link.jsonl": target, "big/agent-link.jsonl": target, "big/broken.jsonl": filepath.Join(root, "nope"), "p/dir.jsonl": filepath.Join(root, "p0")}
	for link, to := range links {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Skip("symlinks unsupported:", err)
		}
	}
	linked := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, linked); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	keep := func(rel, _ string) (bool, string) {
		base := rel[strings.LastIndexByte(rel, '/')+1:]
		switch {
		case !strings.HasSuffix(base, ".jsonl"):
			return false, ""
		case strings.HasPrefix(base, "agent-"):
			return false, "an agent's"
		}
		return true, ""
	}
	for _, path := range []string{root, root + string(filepath.Separator), linked, filepath.Join(root, "big")} {
		src := Source{Kind: "chat", Path: path, Project: "/p", Store: "/s"}
		files, skipped, err := discover("chat", src, keep)
		wantFiles, wantSkipped, wantErr := walkDiscover("chat", src, keep)
		if err != nil || wantErr != nil {
			t.Fatal(err, wantErr)
		}
		if len(files) < 2*statChunk || len(skipped) < 5 {
			t.Fatalf("%s: %d files, %d skipped: the tree is not what the test means", path, len(files), len(skipped))
		}
		if !slices.Equal(files, wantFiles) {
			t.Errorf("%s: files differ from a lexical walk's:\n%v\nwant\n%v", path, files, wantFiles)
		}
		if !slices.Equal(skipped, wantSkipped) {
			t.Errorf("%s: skipped %q\nwant %q", path, skipped, wantSkipped)
		}
	}
}

func BenchmarkDiscover(b *testing.B) {
	root := b.TempDir()
	for d := range 8 {
		for i := range 1000 {
			writeFile(b, "claude", filepath.Join(root, fmt.Sprintf("-home-ana-p%d", d), fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", i)), []byte("{}\n"), "")
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		files, _, err := claude{}.Discover(Source{Path: root})
		if err != nil || len(files) != 8000 {
			b.Fatal(len(files), err)
		}
	}
}
