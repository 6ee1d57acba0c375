package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// recordedGemini is a Gemini CLI 0.61.0 home as it recorded three sessions (see its README).
const recordedGemini = "testdata/gemini-0.61/home/.gemini"

// TestGeminiRecordedSessions: what Gemini CLI 0.61 wrote reads as the person's words only — the
// <session_context> it sends as a user message inside a $set record is not theirs — and a resumed
// session's file holds both prompts.
func TestGeminiRecordedSessions(t *testing.T) {
	tests := []struct {
		file string
		user []string
	}{
		{"session-2026-11-26T18-41-fce35531.jsonl", []string{"Remember: we deploy with make deploy, never by hand.", "Also: the staging database is called shop_stage."}},
		{"session-2026-11-26T18-43-fce35531.jsonl", nil}, // the second file a resume starts: context only
		{"session-2026-11-26T18-44-cd954f07.jsonl", []string{"Where do the fixtures live?"}},
	}
	for _, tt := range tests {
		path := filepath.Join(recordedGemini, "tmp", "shop-app", "chats", tt.file)
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		r := mustRead(t, File{Kind: "gemini", Path: path, Size: fi.Size(), ModTime: fi.ModTime()}, Cursor{})
		if got := roleTexts(r, User); !slices.Equal(got, tt.user) {
			t.Errorf("%s: user turns %q, want %q", tt.file, got, tt.user)
		}
		for _, s := range r.Sessions { // the project its folder's .project_root names
			if s.Project != "/home/ana/src/shop-app" {
				t.Errorf("%s: session %s in project %q", tt.file, s.ID, s.Project)
			}
		}
	}
}

// TestLocateGemini: the project of a Gemini CLI 0.61 session comes from its folder's
// .project_root, else from projects.json; its project hash from the metadata line.
func TestLocateGemini(t *testing.T) {
	home := t.TempDir()
	copyTree(t, recordedGemini, home)
	f := File{Kind: "gemini", Path: filepath.Join(home, "tmp", "shop-app", "chats", "session-2026-11-26T18-44-cd954f07.jsonl")}
	want := Placed{Project: "/home/ana/src/shop-app", ProjectHash: ProjectHash("/home/ana/src/shop-app")}
	if got := Locate(f); got != want {
		t.Errorf("Locate = %+v, want %+v", got, want)
	}
	os.Remove(filepath.Join(home, "tmp", "shop-app", ".project_root"))
	geminiFolders.Clear()
	if got := Locate(f); got != want {
		t.Errorf("without .project_root: Locate = %+v, want %+v from projects.json", got, want)
	}
	os.Remove(filepath.Join(home, "projects.json"))
	geminiFolders.Clear()
	if got := Locate(f); got != (Placed{ProjectHash: want.ProjectHash}) {
		t.Errorf("with neither: Locate = %+v, want the hash alone", got)
	}
	if got := GeminiProjects(filepath.Join(recordedGemini, "tmp")); !slices.Equal(got, []string{"/home/ana/src/shop-app", "/home/ana/src/shop-app"}) {
		t.Errorf("GeminiProjects = %q", got)
	}
}

// TestLocateClaude: a claude transcript's folder, when Claude Code named it.
func TestLocateClaude(t *testing.T) {
	for path, want := range map[string]string{
		"/h/.claude/projects/-home-ana-caf-/s.jsonl":    "-home-ana-caf-",
		"/h/.claude/projects/C--Users-ana-shop/s.jsonl": "C--Users-ana-shop",
		"/h/exports/shop/s.jsonl":                       "",
		"/h/.claude/projects/-home-ana-café/s.jsonl":    "",
	} {
		if got := Locate(File{Kind: "claude", Path: path}).Folder; got != want {
			t.Errorf("Locate(%s).Folder = %q, want %q", path, got, want)
		}
	}
}

func copyTree(t *testing.T, src, dst string) {
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
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
