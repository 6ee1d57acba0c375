package phases

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
)

func TestLessonWords(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Remember that fixtures live in testdata.", true},
		{"from now on run make lint", true},
		{"FROM NOW ON run make lint", true},
		{"We migrated to Postgres yesterday", true}, // a stem: migrate, migrated, migration
		{"the migration broke", true},
		{"immigration rules", false}, // a word's inside is no word
		{"we used a mock", false},    // "we use" is a whole phrase
		{"we use a mock", true},
		{"fixtures lives in testdata", true},
		{"don't ever push to main", true},
		{"don’t ever push to main", true},
		{"dont ever push to main", true},
		{"mustard", false},
		{"you must_not", false}, // _ is a word byte, as \b has it
		{"it should.", true},
		{"x-always-y", true},
		{"please fix the flaky cart test", false},
		{"", false},
		{"remembe", false},
	}
	for _, tt := range tests {
		if got := lesson(tt.text); got != tt.want {
			t.Errorf("lesson(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// lessonRE is what lesson matched as a regular expression, with its stem (migrat) and the
// apostrophes it now also takes written out.
var lessonRE = regexp.MustCompile(`(?i)\b(remember|from now on|going forward|always|never|prefer|we use|we decided|decided|migrat\w*|switched|no longer|instead of|lives? in|don['’]?t ever|make sure|note that|actually|should|must)\b`)

func FuzzLessonMatchesRegexp(f *testing.F) {
	for _, s := range []string{"Remember this", "we migrated", "x_always", "don’t ever", "MUST", "instead of it", "lives  in"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// (?i) folds a few non-ASCII letters into ASCII ones (K, the Kelvin sign, into k; ſ into
		// s); the word set folds ASCII only, as nobody types those.
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\u212a\u017f") {
			return
		}
		if got, want := lesson(s), lessonRE.MatchString(s); got != want {
			t.Errorf("lesson(%q) = %v, the regexp says %v", s, got, want)
		}
	})
}

// backlog is n one-session files, a day apart, of one user turn each; every tenth holds a lesson.
func backlog(n int) []digestFile {
	files := make([]digestFile, n)
	for i := range files {
		text := fmt.Sprintf("please look at the flaky cart test number %d again", i)
		if i%10 == 0 {
			text = fmt.Sprintf("Remember that the cart service %d listens on port 8080.", i)
		}
		files[i] = digestFile{read: FileRead{Path: fmt.Sprintf("f%05d", i)}, sessions: []extract.Session{{
			ID: fmt.Sprint(i), Date: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i),
			Turns: []extract.Turn{{Role: "user", Text: text}, {Role: "assistant", Text: strings.Repeat("done. ", 20)}},
		}}}
	}
	return files
}

// TestFitScansOnlyWhatItKeeps: cutting a backlog many times the budget reads the lessons of the
// files it keeps (and the ones it tries), not of every file read.
func TestFitScansOnlyWhatItKeeps(t *testing.T) {
	scanned := 0
	was := lesson
	lesson = func(text string) bool { scanned++; return was(text) }
	t.Cleanup(func() { lesson = was })

	files := backlog(20000)
	_, files = fit(files, 5000)
	kept := 0
	for _, f := range files {
		if !f.deferred {
			kept++
		}
	}
	if kept == 0 || kept > 200 {
		t.Fatalf("kept %d files of 20000 in 5000 tokens", kept)
	}
	if scanned > 3*kept+10 {
		t.Errorf("the cut scanned %d turns to keep %d files: it reads the whole backlog", scanned, kept)
	}
}

// TestFitKeepsOldestAndNoEmptySession: a backlog over budget is consumed oldest first; a session
// kept is never sent empty (its words cut, its cursor moved: lost); a file that does not fit waits.
func TestFitKeepsOldestAndNoEmptySession(t *testing.T) {
	files := backlog(1000)
	cut, files := fit(files, 3000)
	lastKept := -1
	for i, f := range files {
		if f.deferred {
			continue
		}
		lastKept = i
		for _, s := range f.sessions {
			if len(s.Turns) == 0 || s.Turns[0].Role != "user" {
				t.Fatalf("file %d kept without its user turn: %+v", i, s.Turns)
			}
		}
	}
	if lastKept < 0 || files[0].deferred || !files[len(files)-1].deferred {
		t.Errorf("want the oldest kept and the newest deferred (last kept %d)", lastKept)
	}
	if n := size(files); n > 3000 {
		t.Errorf("digest of %d estimated tokens over the budget", n)
	}
	if note := strings.Join(cut, "\n"); !strings.Contains(note, "transcript files to the next pass") || strings.Count(note, "\n") > 3 {
		t.Errorf("the cut is not said in a few lines: %q", note)
	}
}

// TestFitLeavesTurnListsAsRead: the material is cut again with a smaller budget when the exact
// count says the prompt is over; every cut works on lists of its own.
func TestFitLeavesTurnListsAsRead(t *testing.T) {
	files := backlog(50)
	files[0].sessions[0].Turns = append(files[0].sessions[0].Turns, extract.Turn{Role: "tool", Text: strings.Repeat("log ", 2000)})
	before := fmt.Sprint(files)
	read := make([]digestFile, len(files))
	copy(read, files)
	fit(files, 400)
	if got := fmt.Sprint(read); got != before {
		t.Error("fit changed the turn lists it was given")
	}
}

// BenchmarkFitBacklog is the cut of a first pass over a long history: 20,000 short sessions,
// thousands of times the budget.
func BenchmarkFitBacklog(b *testing.B) {
	files := backlog(20000)
	b.ReportAllocs()
	for b.Loop() {
		in := make([]digestFile, len(files))
		copy(in, files)
		fit(in, 60000)
	}
}
