package phases

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestCallDir(t *testing.T) {
	tests := []struct{ dir, cwd, want string }{
		{"", "/home/ana/shop", ""},
		{"frontend", "/home/ana/shop", "/home/ana/shop/frontend"},
		{"../api", "/home/ana/shop/web", "/home/ana/shop/api"},
		{"/home/ana/shop/frontend", "/home/ana/other", "/home/ana/shop/frontend"},
		{"frontend", "", "frontend"},
	}
	for _, tt := range tests {
		if got := callDir(tt.dir, tt.cwd); got != tt.want {
			t.Errorf("callDir(%q, %q) = %q, want %q", tt.dir, tt.cwd, got, tt.want)
		}
	}
}

// TestDigestRedactsCallDirs: a secret in the directory a shell call ran in is swept from it as
// from the turns' text, though the directory never reaches the model: the offline consolidator
// may name it in a memory.
func TestDigestRedactsCallDirs(t *testing.T) {
	f := newFixture(t, nil)
	pw := "Vq7" + "-mK2pL9xR4"
	path := f.session("s1", "/proj", "here is the .env:\\nDB_PASSWORD="+pw+"\\nPORT=5432")
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(`{"type":"assistant","uuid":"s1z","sessionId":"s1","cwd":"/proj/` + pw + `","timestamp":"2026-11-20T10:00:09Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"x1","name":"Bash","input":{"command":"npm test"}}]}}` + "\n")
	fh.Close()
	m, err := Read(context.Background(), f.env, f.storeDir(), pendingOf(t, f), 100000)
	if err != nil {
		t.Fatal(err)
	}
	dirs := 0
	for _, s := range m.Digest(f.env.Redactor, 100000).Sessions {
		for _, turn := range s.Turns {
			if turn.Dir != "" {
				dirs++
			}
			if strings.Contains(turn.Dir, pw) {
				t.Errorf("the password survived in a call's directory: %q", turn.Dir)
			}
		}
	}
	if dirs != 1 {
		t.Errorf("%d calls with a directory, want 1", dirs)
	}
}
