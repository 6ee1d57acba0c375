package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestKeptOutlivesGeminiCleanup: Gemini CLI 0.61, started after a resumed session, deleted both
// files of that session (see testdata/gemini-0.61/README.md). Kept as they appeared, they are still
// listed under their own paths and read whole, with what was appended after they were kept.
func TestKeptOutlivesGeminiCleanup(t *testing.T) {
	home := t.TempDir()
	copyTree(t, recordedGemini, filepath.Join(home, ".gemini"))
	src := Source{Kind: "gemini", Path: filepath.Join(home, ".gemini", "tmp"), Kept: filepath.Join(home, "state", "kept")}
	chats := filepath.Join(src.Path, "shop-app", "chats")
	resumed := filepath.Join(chats, "session-2026-11-26T18-41-fce35531.jsonl")
	stub := filepath.Join(chats, "session-2026-11-26T18-43-fce35531.jsonl")

	if n, err := KeepAll(src); err != nil || n != 3 {
		t.Fatalf("KeepAll = %d, %v; want the 3 session files kept", n, err)
	}
	if n, err := KeepAll(src); err != nil || n != 0 {
		t.Fatalf("KeepAll again = %d, %v; want nothing new", n, err)
	}
	// Gemini CLI appends to the file it keeps open; then its cleanup deletes the session.
	fh, err := os.OpenFile(resumed, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(`{"id":"late-1","timestamp":"2026-11-26T18:45:00.000Z","type":"user","content":[{"text":"One more thing: tag releases as vX.Y.Z."}]}` + "\n")
	fh.Close()
	os.Remove(resumed)
	os.Remove(stub)

	files, _, err := gemini{}.Discover(src)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Base(f.Path))
		if f.Path == resumed {
			if f.Kept == "" {
				t.Fatalf("%s is listed but not read from its kept link", f.Path)
			}
			r := mustRead(t, f, Cursor{})
			want := []string{"Remember: we deploy with make deploy, never by hand.", "Also: the staging database is called shop_stage.", "One more thing: tag releases as vX.Y.Z."}
			if got := roleTexts(r, User); !slices.Equal(got, want) {
				t.Errorf("kept session reads %q, want %q", got, want)
			}
			if r.Sessions[0].Project != "/home/ana/src/shop-app" {
				t.Errorf("kept session in project %q", r.Sessions[0].Project)
			}
		}
	}
	slices.Sort(paths)
	if want := []string{"session-2026-11-26T18-41-fce35531.jsonl", "session-2026-11-26T18-43-fce35531.jsonl", "session-2026-11-26T18-44-cd954f07.jsonl"}; !slices.Equal(paths, want) {
		t.Errorf("listed %q, want %q", paths, want)
	}
}

// TestKeepOneFile: the daemon keeps a file when it appears, only a session file of the source, and
// links anew a file the agent replaced by renaming a new one over it.
func TestKeepOneFile(t *testing.T) {
	root := t.TempDir()
	src := Source{Kind: "gemini", Path: filepath.Join(root, "tmp"), Kept: filepath.Join(root, "kept")}
	session := filepath.Join(src.Path, "shop", "chats", "session-2026-11-26T10-00-abcd1234.jsonl")
	other := filepath.Join(src.Path, "shop", "logs.json")
	for _, p := range []string{session, other} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(`{"sessionId":"abcd1234"}`+"\n"), 0o644)
	}
	if made, err := Keep(src, other); made || err != nil {
		t.Errorf("Keep(logs.json) = %v, %v: not a session file", made, err)
	}
	if made, err := Keep(src, session); !made || err != nil {
		t.Fatalf("Keep(session) = %v, %v", made, err)
	}
	if made, _ := Keep(src, session); made {
		t.Error("kept twice")
	}
	os.WriteFile(session+".new", []byte(`{"sessionId":"abcd1234","rewritten":true}`+"\n"), 0o644)
	os.Rename(session+".new", session)
	if made, err := Keep(src, session); !made || err != nil {
		t.Fatalf("Keep(replaced) = %v, %v", made, err)
	}
	kept, _ := os.ReadFile(filepath.Join(src.Kept, "shop", "chats", filepath.Base(session)))
	if string(kept) != `{"sessionId":"abcd1234","rewritten":true}`+"\n" {
		t.Errorf("kept %q, want the replacement", kept)
	}
}

// TestGeminiMigratedCopyReadOnce: Gemini CLI 0.61's storage migration copies an older version's
// hash folder into the project's short-name folder and leaves the old one; each session is read
// once, from the copy.
func TestGeminiMigratedCopyReadOnce(t *testing.T) {
	home := t.TempDir()
	copyTree(t, recordedGemini, filepath.Join(home, ".gemini"))
	tmp := filepath.Join(home, ".gemini", "tmp")
	old := filepath.Join(tmp, ProjectHash("/home/ana/src/shop-app"), "chats")
	copyTree(t, filepath.Join(tmp, "shop-app", "chats"), old)
	for _, folder := range []string{filepath.Dir(old), filepath.Join(tmp, "shop-app")} { // its logs.json is copied too
		writeFile(t, "gemini", filepath.Join(folder, "logs.json"), logsJSON(logsPrompts[0]), "")
	}
	files, skipped, err := gemini{}.Discover(Source{Kind: "gemini", Path: tmp})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 || len(skipped) != 4 {
		t.Fatalf("%d files, %d skipped (%+v): want the 4 copies read and the 4 originals passed over", len(files), len(skipped), skipped)
	}
	for _, f := range files {
		if geminiFolder(f.Path) != filepath.Join(tmp, "shop-app") {
			t.Errorf("read %s, want only the short-name folder's", f.Path)
		}
	}
}
