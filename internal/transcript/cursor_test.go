package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// appendFile appends data to f's file and returns f as discovery would now see it.
func appendFile(t testing.TB, f File, data string) File {
	t.Helper()
	fh, err := os.OpenFile(f.Path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.WriteString(data); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	return restat(t, f)
}

func restat(t testing.TB, f File) File {
	t.Helper()
	fi, err := os.Stat(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	f.Size, f.ModTime = fi.Size(), fi.ModTime()
	return f
}

func turnTexts(r Reading) []string {
	var texts []string
	for _, s := range r.Sessions {
		for _, t := range s.Turns {
			texts = append(texts, t.Text)
		}
	}
	return texts
}

// roleTexts returns the texts of a reading's turns of one role, in order.
func roleTexts(r Reading, role Role) []string {
	var texts []string
	for _, s := range r.Sessions {
		for _, t := range s.Turns {
			if t.Role == role {
				texts = append(texts, t.Text)
			}
		}
	}
	return texts
}

// cutCount is the records a reading cut, over all its sessions.
func cutCount(r Reading) int {
	n := 0
	for _, s := range r.Sessions {
		n += s.Cut
	}
	return n
}

// readCase is a transcript of each kind in two parts: the file as first read, and what is
// appended to it, with the turns, session and project the second read must give.
type readCase struct {
	kind, name      string
	first, appended string
	want            []string
	id, project     string // of the appended reading's session; project "" = the file's directory
}

func readCases() []readCase {
	const codexID = "0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b"
	return []readCase{
		{"claude", "-home-ana-shop/2ff46cd5-f4e7-4724-bb20-579dae7956ea.jsonl",
			claudeUser("u1", "first question") + claudeAssistant("a1", "m1", textBlock("first answer")),
			claudeUser("u2", "second question"),
			[]string{"second question"}, "2ff46cd5-f4e7-4724-bb20-579dae7956ea", "/home/ana/shop"},
		{"codex", "2026/05/15/rollout-2026-05-15T09-00-00-" + codexID + ".jsonl",
			codexMeta("meta-id", "/home/ana/shop") + codexEvent("user_message", "first"),
			codexEvent("user_message", "second") + codexMessage("user", "second"),
			[]string{"second"}, "meta-id", "/home/ana/shop"},
		{"gemini", "ab12/chats/session-2026-05-15T10-00-g1.jsonl",
			geminiMeta("g1", "/home/ana/shop") + geminiMsg("m1", "user", "first"),
			geminiMsg("m2", "gemini", "second"),
			[]string{"second"}, "g1", "/home/ana/shop"},
		{"aider", "shop/.aider.chat.history.md",
			"# aider chat started at 2026-05-15 08:00:00\n\n#### first\n\nanswer one\n\n",
			"#### second\n\nanswer two\n",
			[]string{"second", "answer two"}, "aider-2026-05-15T08:00:00", ""},
		{"chat", "pairing.jsonl",
			chatLine("user", "first"),
			chatLine("user", "second"),
			[]string{"second"}, "pairing", "/configured"},
	}
}

func TestReadOnlyAppended(t *testing.T) {
	tests := readCases()
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			dir := t.TempDir()
			configured := ""
			if tt.kind == "chat" {
				configured = tt.project
			}
			f := writeFile(t, tt.kind, filepath.Join(dir, tt.name), []byte(tt.first), configured)
			r1 := mustRead(t, f, Cursor{})
			if r1.Cursor.Offset != int64(len(tt.first)) {
				t.Fatalf("first read: offset %d, want %d", r1.Cursor.Offset, len(tt.first))
			}
			f = appendFile(t, f, tt.appended)
			from, pending, err := Resume(f, r1.Cursor)
			if err != nil {
				t.Fatal(err)
			}
			if from != r1.Cursor || pending != int64(len(tt.appended)) {
				t.Fatalf("Resume = %+v, %d; want the stored cursor and %d pending", from, pending, len(tt.appended))
			}
			r2 := mustRead(t, f, from)
			if got := turnTexts(r2); !slices.Equal(got, tt.want) {
				t.Errorf("appended read: turns %q, want %q", got, tt.want)
			}
			project := tt.project
			if project == "" {
				project = CanonicalProject(filepath.Dir(f.Path))
			}
			if len(r2.Sessions) != 1 || r2.Sessions[0].ID != tt.id || r2.Sessions[0].Project != project {
				t.Errorf("appended read: sessions %+v, want one with id %q, project %q", r2.Sessions, tt.id, project)
			}
			if want := int64(len(tt.first) + len(tt.appended)); r2.Cursor.Offset != want || r2.Cursor.Size != want {
				t.Errorf("cursor %+v, want offset and size %d", r2.Cursor, want)
			}
			if want := int64(strings.Count(tt.first+tt.appended, "\n")); r2.Cursor.Lines != want {
				t.Errorf("cursor lines %d, want %d", r2.Cursor.Lines, want)
			}
			for i, r := range []Reading{r1, r2} {
				if want := fileTailHash(t, f.Path, r.Cursor.Offset); r.Tail != want {
					t.Errorf("read %d: tail %q, want the hash of the bytes before offset %d, %q", i+1, r.Tail, r.Cursor.Offset, want)
				}
			}
		})
	}
}

func fileTailHash(t *testing.T, path string, offset int64) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data[max(offset-TailWindow, 0):offset])
	return hex.EncodeToString(sum[:])
}

// TestReadTailStopsAtTheCursor checks that a read's tail fingerprint ends where its cursor does:
// before a line still being written, and over exactly TailWindow bytes of a long file.
func TestReadTailStopsAtTheCursor(t *testing.T) {
	line := chatLine("user", strings.Repeat("a long turn ", 100))
	whole := strings.Repeat(line, 8)
	f := writeFile(t, "chat", filepath.Join(t.TempDir(), "s.jsonl"), []byte(whole+`{"role":"user","te`), "/configured")
	r := mustRead(t, f, Cursor{})
	if r.Cursor.Offset != int64(len(whole)) {
		t.Fatalf("offset %d, want %d", r.Cursor.Offset, len(whole))
	}
	sum := sha256.Sum256([]byte(whole[len(whole)-TailWindow:]))
	if want := hex.EncodeToString(sum[:]); r.Tail != want {
		t.Errorf("tail %q, want %q", r.Tail, want)
	}
}

func TestResume(t *testing.T) {
	line1 := claudeUser("u1", "first question")
	line2 := claudeUser("u2", "second question")
	tests := []struct {
		name        string
		now         string // the file's content at Resume
		restart     bool
		wantPending int64
	}{
		{"unchanged", line1 + line2, false, 0},
		{"appended", line1 + line2 + line1, false, int64(len(line1))},
		{"partial line appended", line1 + line2 + `{"type":`, false, int64(len(`{"type":`))},
		{"truncated", line1, true, int64(len(line1))},
		{"emptied", "", true, 0},
		{"replaced, same size", strings.Replace(line1, "first", "FIRST", 1) + line2, true, int64(len(line1 + line2))},
		{"replaced, grown", claudeUser("x1", "another session entirely") + line2 + line2, true, int64(len(claudeUser("x1", "another session entirely") + line2 + line2))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p", "s.jsonl")
			f := writeFile(t, "claude", path, []byte(line1+line2), "")
			c := mustRead(t, f, Cursor{}).Cursor
			f = writeFile(t, "claude", path, []byte(tt.now), "")
			if tt.name != "unchanged" { // a real write moves the modification time
				later := f.ModTime.Add(time.Minute)
				if err := os.Chtimes(path, later, later); err != nil {
					t.Fatal(err)
				}
				f.ModTime = later
			}
			from, pending, err := Resume(f, c)
			if err != nil {
				t.Fatal(err)
			}
			if tt.restart && from != (Cursor{}) {
				t.Errorf("from = %+v, want the zero cursor", from)
			}
			if !tt.restart && from != c {
				t.Errorf("from = %+v, want the stored cursor %+v", from, c)
			}
			if pending != tt.wantPending {
				t.Errorf("pending = %d, want %d", pending, tt.wantPending)
			}
		})
	}
}

func TestResumeZeroCursor(t *testing.T) {
	f := writeFile(t, "claude", filepath.Join(t.TempDir(), "p", "s.jsonl"), []byte(claudeUser("u1", "hi")), "")
	from, pending, err := Resume(f, Cursor{})
	if err != nil || from != (Cursor{}) || pending != f.Size {
		t.Errorf("Resume(zero) = %+v, %d, %v; want zero cursor, %d", from, pending, err, f.Size)
	}
}

func TestIncompleteLastLineLeft(t *testing.T) {
	line1 := claudeUser("u1", "first question")
	line2 := claudeUser("u2", "second question")
	cut := len(line2) / 2
	f := writeFile(t, "claude", filepath.Join(t.TempDir(), "p", "s.jsonl"), []byte(line1+line2[:cut]), "")
	r := mustRead(t, f, Cursor{})
	if r.Cursor.Offset != int64(len(line1)) || r.Cursor.Lines != 1 || r.Cursor.Size != f.Size {
		t.Fatalf("cursor %+v: want offset %d past the only complete line", r.Cursor, len(line1))
	}
	if got := turnTexts(r); !slices.Equal(got, []string{"first question"}) || len(r.Warnings) > 0 {
		t.Fatalf("turns %q, warnings %q: the line still being written must be left alone", got, r.Warnings)
	}
	f = appendFile(t, f, line2[cut:])
	from, pending, err := Resume(f, r.Cursor)
	if err != nil || pending != int64(len(line2)) {
		t.Fatalf("Resume: pending %d, %v; want %d", pending, err, len(line2))
	}
	if got := turnTexts(mustRead(t, f, from)); !slices.Equal(got, []string{"second question"}) {
		t.Errorf("after the line was finished: turns %q", got)
	}
}

func TestLongLines(t *testing.T) {
	long := strings.Repeat("a long pasted log line with words\n", 9000) // ~300 KiB of text
	huge := strings.Repeat("x", 3<<20)                                  // a tool result past keepLineBuf
	data := claudeUser("u1", "before") + claudeToolResult("r1", huge, false) + claudeUser("u2", long) + claudeUser("u3", "after")
	f := writeFile(t, "claude", filepath.Join(t.TempDir(), "p", "s.jsonl"), []byte(data), "")
	r := mustRead(t, f, Cursor{})
	if r.Cursor.Offset != f.Size || r.Cursor.Lines != 4 {
		t.Fatalf("cursor %+v, want all 4 lines (%d bytes)", r.Cursor, f.Size)
	}
	got := turnTexts(r)
	if len(got) != 3 || got[0] != "before" || got[2] != "after" {
		t.Fatalf("turns %.80q", got)
	}
	if len(got[1]) > maxUserText || !strings.HasSuffix(got[1], clipMark) || !strings.HasPrefix(got[1], "a long pasted") {
		t.Errorf("long user turn: %d bytes, want at most %d, cut with %q", len(got[1]), maxUserText, clipMark)
	}
}

func TestReadStopsAtTextBudget(t *testing.T) {
	const n = 600 // 600 turns of 16 KiB: more than one reading keeps
	var b strings.Builder
	for i := range n {
		b.WriteString(claudeUser(fmt.Sprintf("u%d", i), fmt.Sprintf("%04d %s", i, strings.Repeat("y", maxUserText))))
	}
	f := writeFile(t, "claude", filepath.Join(t.TempDir(), "p", "s.jsonl"), []byte(b.String()), "")
	var total int
	from := Cursor{}
	for reads := 1; ; reads++ {
		r := mustRead(t, f, from)
		total += len(turnTexts(r))
		if r.Cursor.Offset == f.Size {
			if reads < 2 {
				t.Errorf("one reading kept all %d turns; want it to stop at %d bytes of text", total, maxReadText)
			}
			break
		}
		if r.Cursor.Offset <= from.Offset || reads > 5 {
			t.Fatalf("reading %d made no progress: %+v", reads, r.Cursor)
		}
		// The file is untouched, yet complete lines remain: the next pass must read them.
		if _, pending, err := Resume(f, r.Cursor); err != nil || pending != f.Size-r.Cursor.Offset {
			t.Fatalf("Resume after an early stop: pending %d, %v; want %d", pending, err, f.Size-r.Cursor.Offset)
		}
		from = r.Cursor
	}
	if total != n {
		t.Errorf("read %d turns over all readings, want %d: each exactly once", total, n)
	}
}

func TestWholeDocumentResume(t *testing.T) {
	note := "# 2026-05-15\n## Decisions\n- Use pnpm.\n"
	path := filepath.Join(t.TempDir(), "2026-05-15.md")
	f := writeFile(t, "markdown", path, []byte(note), "/p")
	r := mustRead(t, f, Cursor{})
	if r.Cursor.Offset != f.Size || len(r.Sessions) != 1 {
		t.Fatalf("first read: %+v", r)
	}
	from, pending, err := Resume(f, r.Cursor)
	if err != nil || pending != 0 || from != r.Cursor {
		t.Fatalf("unchanged: Resume = %+v, %d, %v; want the cursor, 0", from, pending, err)
	}
	if again := mustRead(t, f, from); len(again.Sessions) != 0 || again.Cursor != r.Cursor {
		t.Errorf("unchanged: read again %+v, want nothing new", again)
	}
	f = writeFile(t, "markdown", path, []byte(note+"- Money in cents.\n"), "/p")
	later := fixedTime.Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	f = restat(t, f)
	from, pending, err = Resume(f, r.Cursor)
	if err != nil || pending != f.Size || from != (Cursor{}) {
		t.Fatalf("edited: Resume = %+v, %d, %v; want a restart", from, pending, err)
	}
	want := []string{"Decision: Use pnpm.", "Decision: Money in cents."}
	if got := turnTexts(mustRead(t, f, from)); !slices.Equal(got, want) {
		t.Errorf("edited: turns %q, want the whole note %q", got, want)
	}
}

func TestEachLine(t *testing.T) {
	long := strings.Repeat("z", 3*lineBufSize+17)
	tests := []struct {
		in       string
		lines    []string
		consumed int64
	}{
		{"", nil, 0},
		{"partial", nil, 0},
		{"a\n", []string{"a"}, 2},
		{"a\nb", []string{"a"}, 2},
		{"a\r\n\nb\n", []string{"a", "", "b"}, 6},
		{long + "\n" + "c\n" + long, []string{long, "c"}, int64(len(long) + 3)},
	}
	for _, tt := range tests {
		var got []string
		consumed, n, err := eachLine(strings.NewReader(tt.in), func(b []byte) bool {
			got = append(got, string(b))
			return true
		}, nil)
		if err != nil || consumed != tt.consumed || n != int64(len(tt.lines)) || !slices.Equal(got, tt.lines) {
			t.Errorf("eachLine(%.20q) = %d lines %.30q, %d bytes, %v; want %.30q, %d bytes", tt.in, n, got, consumed, err, tt.lines, tt.consumed)
		}
	}
}

// repeated is n bytes of c, read without being held anywhere.
type repeated struct {
	c byte
	n int64
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := int(min(int64(len(p)), r.n))
	p[0] = r.c
	for i := 1; i < k; i *= 2 {
		copy(p[i:k], p[:i])
	}
	r.n -= int64(k)
	return k, nil
}

// TestEachLineSkipsOverlongLines: a line past maxLine is skipped, not held — before, one
// unterminated 3 GB line took 6.4 GB — and the lines after it are read.
func TestEachLineSkipsOverlongLines(t *testing.T) {
	huge := int64(16 * maxLine) // 512 MiB
	tests := []struct {
		name     string
		in       func() io.Reader
		lines    []string
		skipped  []int64
		consumed int64
	}{
		{"between lines", func() io.Reader {
			return io.MultiReader(strings.NewReader("a\n"), &repeated{'z', huge}, strings.NewReader("\nb\n"))
		}, []string{"a", "b"}, []int64{huge + 1}, huge + 5},
		{"unterminated, at the end", func() io.Reader {
			return io.MultiReader(strings.NewReader("a\n"), &repeated{'z', huge})
		}, []string{"a"}, []int64{huge}, huge + 2},
		{"just within the limit", func() io.Reader {
			return io.MultiReader(&repeated{'z', maxLine - 1}, strings.NewReader("\n"))
		}, []string{strings.Repeat("z", maxLine-1)}, nil, maxLine},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			var skipped []int64
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			consumed, n, err := eachLine(tt.in(), func(b []byte) bool {
				got = append(got, string(b))
				return true
			}, func(length int64) bool {
				skipped = append(skipped, length)
				return true
			})
			runtime.ReadMemStats(&after)
			if err != nil || consumed != tt.consumed || n != int64(len(tt.lines)+len(tt.skipped)) ||
				!slices.Equal(got, tt.lines) || !slices.Equal(skipped, tt.skipped) {
				t.Fatalf("eachLine = %d lines %.30q, skipped %v, %d bytes, %v; want %.30q, skipped %v, %d bytes",
					n, got, skipped, consumed, err, tt.lines, tt.skipped, tt.consumed)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*maxLine {
				t.Errorf("reading allocated %d bytes for lines of at most %d", alloc, maxLine)
			}
		})
	}
}

func TestCursorHead(t *testing.T) {
	data := []byte(strings.Repeat("0123456789abcdef\n", 400))
	for _, offset := range []int64{0, 17, 4096, int64(len(data))} {
		c, err := cursorAt(bytes.NewReader(data), int64(len(data)), offset, fixedTime)
		if err != nil {
			t.Fatal(err)
		}
		if c.HeadLen != min(offset, headMax) || (c.HeadLen > 0) != (c.Head != "") {
			t.Errorf("cursorAt(offset %d) = head_len %d, head %q", offset, c.HeadLen, c.Head)
		}
	}
}

// TestReadIgnoresByteOrderMark: a file that a Windows editor saved with a byte order mark reads as
// the same sessions, and peeks as the same session and project, as without it.
func TestReadIgnoresByteOrderMark(t *testing.T) {
	for _, doc := range []struct{ kind, file, project string }{ // the whole-document formats
		{"gemini", "gemini/" + geminiHash + "/chats/session-2026-05-14T09-30-1a2b3c4d.json", ""},
		{"markdown", "markdown/.harness/sessions/2026-05-15-08h00.md", "/home/ana/shop"},
		{"chat", "chat/support.json", "/home/ana/shop"},
	} {
		t.Run(doc.kind+" document", func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", doc.file))
			if err != nil {
				t.Fatal(err)
			}
			base := t.TempDir()
			want := mustRead(t, writeFile(t, doc.kind, filepath.Join(base, "plain", doc.file), data, doc.project), Cursor{})
			got := mustRead(t, writeFile(t, doc.kind, filepath.Join(base, "marked", doc.file), append([]byte("\ufeff"), data...), doc.project), Cursor{})
			if len(turnTexts(want)) == 0 || !slices.Equal(turnTexts(got), turnTexts(want)) || len(got.Warnings) != len(want.Warnings) {
				t.Errorf("with a BOM: turns %q, warnings %q; without: %q, %q", turnTexts(got), got.Warnings, turnTexts(want), want.Warnings)
			}
		})
	}
	for _, tt := range readCases() {
		t.Run(tt.kind, func(t *testing.T) {
			configured := ""
			if tt.kind == "chat" {
				configured = tt.project
			}
			base := t.TempDir()
			plain := writeFile(t, tt.kind, filepath.Join(base, "plain", tt.name), []byte(tt.first+tt.appended), configured)
			marked := writeFile(t, tt.kind, filepath.Join(base, "marked", tt.name), []byte("\ufeff"+tt.first+tt.appended), configured)
			want, got := mustRead(t, plain, Cursor{}), mustRead(t, marked, Cursor{})
			if !slices.Equal(turnTexts(got), turnTexts(want)) || len(got.Warnings) != len(want.Warnings) {
				t.Errorf("with a BOM: turns %q, warnings %q; without: %q, %q", turnTexts(got), got.Warnings, turnTexts(want), want.Warnings)
			}
			a, err := New(tt.kind)
			if err != nil {
				t.Fatal(err)
			}
			wantID, wantProject, _ := Peek(a, plain)
			gotID, gotProject, err := Peek(a, marked)
			// A project read from the file's directory differs by that directory's name.
			gotProject = strings.Replace(gotProject, filepath.Join(base, "marked"), filepath.Join(base, "plain"), 1)
			if err != nil || gotID != wantID || gotProject != wantProject {
				t.Errorf("peek with a BOM: %q, %q, %v; without: %q, %q", gotID, gotProject, err, wantID, wantProject)
			}
		})
	}
}
