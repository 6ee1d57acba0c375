package daemon

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestWatchReportsTranscriptsAsTheyAppear: the daemon reports a file already in a watched folder
// when it starts, and one written in a folder created while it runs — the moment a Gemini CLI
// session file appears, so it is kept before Gemini CLI can delete it.
func TestWatchReportsTranscriptsAsTheyAppear(t *testing.T) {
	root := t.TempDir()
	missing := filepath.Join(t.TempDir(), ".gemini", "tmp")
	before := filepath.Join(root, "shop", "chats", "session-1.jsonl")
	os.MkdirAll(filepath.Dir(before), 0o755)
	os.WriteFile(before, []byte("{}\n"), 0o644)

	changed := make(chan string, 64)
	d, err := New(Options{Schedule: "@every 1h", Pass: func(context.Context) error { return nil },
		Watch: []string{root, missing}, Changed: func(p string) {
			select {
			case changed <- p:
			default: // never block the watch
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()

	waitFor(t, changed, before)
	after := filepath.Join(root, "blog", "chats", "session-2.jsonl")
	// The folder may be created before or after the watch on root sees it: either way the file is
	// reported, by the walk of the new folder or by its own event.
	os.MkdirAll(filepath.Dir(after), 0o755)
	os.WriteFile(after, []byte("{}\n"), 0o644)
	waitFor(t, changed, after)

	// A source that does not exist yet (Gemini CLI installed after dreamd) is watched once made.
	later := filepath.Join(missing, "shop", "chats", "session-3.jsonl")
	os.MkdirAll(filepath.Dir(later), 0o755)
	os.WriteFile(later, []byte("{}\n"), 0o644)
	waitFor(t, changed, later)
}

// waitFor reads reported paths until want comes; the bound only keeps a broken watch from
// hanging the test run.
func waitFor(t *testing.T, changed <-chan string, want string) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case p := <-changed:
			if p == want {
				return
			}
		case <-deadline:
			t.Fatalf("%s was never reported", want)
		}
	}
}
