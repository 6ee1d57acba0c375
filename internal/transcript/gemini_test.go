package transcript

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestGeminiRecords(t *testing.T) {
	meta := geminiMeta("g1", "/home/ana/shop")
	tests := []struct {
		name  string
		lines string
		want  []string
	}{
		{"roles", meta + geminiMsg("m1", "user", "q") + geminiMsg("m2", "gemini", "a") + geminiMsg("m3", "info", "i") + geminiMsg("m4", "error", "e"),
			[]string{"q", "a", "i", "e"}},
		{"rewind drops the message and all later", meta + geminiMsg("m1", "user", "q1") + geminiMsg("m2", "gemini", "a1") +
			geminiMsg("m3", "user", "q2") + `{"$rewindTo":"m2"}` + "\n" + geminiMsg("m4", "user", "q3"),
			[]string{"q1", "q3"}},
		{"an update replaces the message", meta + geminiMsg("m1", "gemini", "Work") + geminiMsg("m1", "gemini", "Worked it out."),
			[]string{"Worked it out."}},
		{"$set is metadata", meta + `{"$set":{"lastUpdated":"2026-05-15T10:00:00Z","summary":"x"}}` + "\n" + geminiMsg("m1", "user", "q"),
			[]string{"q"}},
		{"thought-only message", meta + `{"id":"m1","type":"gemini","content":"","thoughts":[{"subject":"s","description":"d"}]}` + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", "session-x.jsonl"), []byte(tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if got := turnTexts(r); !slices.Equal(got, tt.want) {
				t.Errorf("turns %q, want %q", got, tt.want)
			}
			for _, s := range r.Sessions {
				if s.ID != "g1" || s.Project != "/home/ana/shop" {
					t.Errorf("session %q in %q, want g1 in /home/ana/shop", s.ID, s.Project)
				}
			}
		})
	}
}

// A rewind to a message consumed by an earlier pass drops all this pass read before it.
func TestGeminiRewindAcrossReads(t *testing.T) {
	first := geminiMeta("g1", "/p") + geminiMsg("m1", "user", "q1")
	f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", "session-x.jsonl"), []byte(first), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, geminiMsg("m2", "gemini", "a1")+`{"$rewindTo":"m1"}`+"\n"+geminiMsg("m3", "user", "q1, better put"))
	r2 := mustRead(t, f, r.Cursor)
	if got := turnTexts(r2); !slices.Equal(got, []string{"q1, better put"}) {
		t.Errorf("turns %q", got)
	}
	if r2.Sessions[0].ID != "g1" || r2.Sessions[0].Project != "/p" {
		t.Errorf("session %+v: the id and project must come from the cursor", r2.Sessions[0])
	}
}
