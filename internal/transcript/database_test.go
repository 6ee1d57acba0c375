package transcript

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// newDatabase makes a SQLite database at path from testdata/database/<schema>-schema.sql (the
// tables as the agent creates them) and the given statements, in WAL mode as the agents keep
// theirs, and returns it open for more.
func newDatabase(t *testing.T, path, schema string, stmts ...string) *sql.DB {
	t.Helper()
	ddl, err := os.ReadFile(filepath.Join("testdata", "database", schema+"-schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	execAll(t, db, append([]string{"PRAGMA journal_mode=WAL", string(ddl)}, stmts...)...)
	return db
}

func execAll(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%v\n%s", err, s)
		}
	}
}

// ocTime is a time of the fixtures in OpenCode's milliseconds.
var ocDay = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

func ocMs(minute int) int64 { return ocDay.Add(time.Duration(minute) * time.Minute).UnixMilli() }

func ocSession(id, parent, dir string, minute int) string {
	p := "NULL"
	if parent != "" {
		p = "'" + parent + "'"
	}
	return fmt.Sprintf(`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated)
		VALUES ('%s', 'p1', %s, 'slug', '%s', 'title', '1.18.33', %d, %d)`, id, p, dir, ocMs(minute), ocMs(minute))
}

func ocMessage(id, session string, minute int, data string) string {
	return fmt.Sprintf(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('%s', '%s', %d, %d, '%s')`,
		id, session, ocMs(minute), ocMs(minute), data)
}

func ocPart(id, message, session string, minute int, data string) string {
	return fmt.Sprintf(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('%s', '%s', '%s', %d, %d, '%s')`,
		id, message, session, ocMs(minute), ocMs(minute), strings.ReplaceAll(data, "'", "''"))
}

func ocUser(minute int) string {
	return fmt.Sprintf(`{"role":"user","time":{"created":%d},"agent":"build"}`, ocMs(minute))
}

func ocAssistant(minute int, complete bool) string {
	if !complete {
		return fmt.Sprintf(`{"role":"assistant","time":{"created":%d}}`, ocMs(minute))
	}
	return fmt.Sprintf(`{"role":"assistant","time":{"created":%d,"completed":%d},"finish":"stop"}`, ocMs(minute), ocMs(minute))
}

const (
	ocShop  = "/home/user/src/shop"
	ocOther = "/home/user/src/other"
)

// ocFixture is an OpenCode database: a session with the lesson, a failed shell command and an
// @mention OpenCode expanded (synthetic), its sub-agent's session, and a session of another
// project.
func ocFixture(t *testing.T, path string) *sql.DB {
	return newDatabase(t, path, "opencode",
		`INSERT INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES ('p1', '/', 0, 0, '[]')`,
		ocSession("ses_a", "", ocShop, 0),
		ocMessage("msg_a1", "ses_a", 1, ocUser(1)),
		ocPart("prt_a1a", "msg_a1", "ses_a", 1, `{"type":"text","text":"Our fixtures live in testdata/golden. Read @main.go"}`),
		ocPart("prt_a1b", "msg_a1", "ses_a", 1, `{"type":"text","synthetic":true,"text":"Called the Read tool with the following input: {\"filePath\":\"main.go\"}"}`),
		ocPart("prt_a1c", "msg_a1", "ses_a", 1, `{"type":"file","mime":"text/plain","filename":"main.go","url":"file:///home/user/src/shop/main.go"}`),
		ocMessage("msg_a2", "ses_a", 2, ocAssistant(2, true)),
		ocPart("prt_a2a", "msg_a2", "ses_a", 2, `{"type":"step-start"}`),
		ocPart("prt_a2b", "msg_a2", "ses_a", 2, `{"type":"reasoning","text":"thinking about it"}`),
		ocPart("prt_a2c", "msg_a2", "ses_a", 2, `{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"make lint","description":"Run the linter"},"output":"make: *** No rule to make target 'lint'.  Stop.\n","metadata":{"exit":2}}}`),
		ocPart("prt_a2d", "msg_a2", "ses_a", 2, `{"type":"tool","tool":"read","callID":"c2","state":{"status":"error","input":{"filePath":"/nope"},"error":"File not found: /nope"}}`),
		ocPart("prt_a2e", "msg_a2", "ses_a", 2, `{"type":"text","text":"The linter has no target."}`),
		ocSession("ses_sub", "ses_a", ocShop, 3),
		ocMessage("msg_s1", "ses_sub", 3, ocUser(3)),
		ocPart("prt_s1", "msg_s1", "ses_sub", 3, `{"type":"text","text":"Sub-agent task: count the files"}`),
		ocSession("ses_b", "", ocOther, 5),
		ocMessage("msg_b1", "ses_b", 5, ocUser(5)),
		ocPart("prt_b1", "msg_b1", "ses_b", 5, `{"type":"text","text":"Use pnpm here, never npm."}`),
		ocSession("ses_empty", "", ocOther, 6),
	)
}

// sessionTurns renders a reading's sessions as "id project day: role text" lines.
func sessionTurns(r Reading) []string {
	var out []string
	for _, s := range r.Sessions {
		out = append(out, fmt.Sprintf("%s %s %s cut=%d", s.ID, s.Project, s.Started.UTC().Format("2006-01-02"), s.Cut))
		for _, turn := range s.Turns {
			e := ""
			if turn.IsError {
				e = " (error)"
			}
			out = append(out, fmt.Sprintf("  %s%s: %s", turn.Role, e, strings.TrimSpace(turn.Text)))
		}
	}
	return out
}

func TestOpencodeDiscoverAndRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode", "opencode.db")
	ocFixture(t, path)
	a, _ := New("opencode")
	files, skipped, err := a.Discover(Source{Kind: "opencode", Path: filepath.Dir(path)})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, f := range files {
		listed = append(listed, filepath.Base(f.Path)+" "+f.Project)
	}
	if got, want := strings.Join(listed, "\n"), "ses_a "+ocShop+"\nses_b "+ocOther; got != want {
		t.Errorf("files:\n%s\nwant:\n%s", got, want)
	}
	if len(skipped) != 1 || filepath.Base(skipped[0].Path) != "ses_sub" || !strings.Contains(skipped[0].Reason, "sub-agent") {
		t.Errorf("skipped %+v, want the sub-agent's session", skipped)
	}
	r, err := a.Read(files[0], Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ses_a " + ocShop + " 2026-11-26 cut=1",
		"  user: Our fixtures live in testdata/golden. Read @main.go",
		"  tool: bash: make lint",
		"  tool (error): make: *** No rule to make target 'lint'.  Stop.",
		"  tool: read: /nope",
		"  tool (error): File not found: /nope",
		"  assistant: The linter has no target.",
	}
	if got := sessionTurns(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Cursor.Lines != 2 || r.Cursor.More || r.Cursor.Size != files[0].Size || r.Cursor.Offset != files[0].Size {
		t.Errorf("cursor %+v, want 2 messages, all of the session's %d bytes", r.Cursor, files[0].Size)
	}
	id, project, err := Peek(a, File{Kind: "opencode", Path: files[0].Path})
	if id != "ses_a" || project != ocShop || err != nil {
		t.Errorf("Peek = %q, %q, %v", id, project, err)
	}
	if _, _, err := Peek(a, File{Kind: "opencode", Path: SessionPath(path, "ses_sub")}); err == nil || !strings.Contains(err.Error(), "sub-agent") {
		t.Errorf("Peek of the sub-agent's session: %v, want ErrSubThread", err)
	}
}

// TestOpencodeCursor follows one session as OpenCode changes it in place: untouched, grown (with
// a reply still being written), finished, and rewritten by an undo.
func TestOpencodeCursor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	db := ocFixture(t, path)
	a, _ := New("opencode")
	session := func() File {
		t.Helper()
		files, _, err := a.Discover(Source{Kind: "opencode", Path: path})
		if err != nil || len(files) == 0 {
			t.Fatalf("discover: %v", err)
		}
		return files[0]
	}
	read := func(from Cursor) (Reading, Cursor, int64) {
		t.Helper()
		f := session()
		from, pending, err := Resume(f, from)
		if err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			return Reading{Cursor: from}, from, 0
		}
		r, err := a.Read(f, from)
		if err != nil {
			t.Fatal(err)
		}
		return r, from, pending
	}
	users := func(r Reading) []string {
		var out []string
		for _, s := range r.Sessions {
			for _, turn := range s.Turns {
				if turn.Role == User {
					out = append(out, turn.Text)
				}
			}
		}
		return out
	}

	first, _, _ := read(Cursor{})
	c := first.Cursor
	// A plan's apply checks the session again as StatSession and SessionTail see it.
	f, err := StatSession("opencode", session().Path)
	if err != nil {
		t.Fatal(err)
	}
	if from, pending, err := Resume(f, c); from != c || pending != 0 || err != nil {
		t.Errorf("StatSession then Resume: %+v, %d pending, %v; want the cursor, nothing pending", from, pending, err)
	}
	if tail, err := SessionTail("opencode", f.Path, c); tail != first.Tail || err != nil {
		t.Errorf("SessionTail = %q, %v; want the reading's %q", tail, err, first.Tail)
	}
	if _, _, pending := read(c); pending != 0 {
		t.Errorf("untouched: %d pending, want 0", pending)
	}

	execAll(t, db,
		ocMessage("msg_a3", "ses_a", 10, ocUser(10)),
		ocPart("prt_a3", "msg_a3", "ses_a", 10, `{"type":"text","text":"One more thing: run docker compose up -d db first."}`),
		ocMessage("msg_a4", "ses_a", 11, ocAssistant(11, false)),
		ocPart("prt_a4", "msg_a4", "ses_a", 11, `{"type":"text","text":"Working on"}`),
		`UPDATE session SET time_updated = `+fmt.Sprint(ocMs(11))+` WHERE id = 'ses_a'`)
	grown, from, _ := read(c)
	if from != c {
		t.Errorf("grown: read from %+v, want the cursor %+v", from, c)
	}
	if got := users(grown); len(got) != 1 || !strings.HasPrefix(got[0], "One more thing") {
		t.Errorf("grown: user turns %q, want only the new one", got)
	}
	if grown.Cursor.Lines != 3 || !grown.Cursor.More {
		t.Errorf("grown: cursor %+v, want 3 messages and More (a reply being written)", grown.Cursor)
	}
	for _, s := range grown.Sessions {
		for _, turn := range s.Turns {
			if strings.Contains(turn.Text, "Working on") {
				t.Errorf("grown: the unfinished reply was read: %q", turn.Text)
			}
		}
	}

	execAll(t, db,
		`UPDATE message SET data = '`+ocAssistant(11, true)+`', time_updated = `+fmt.Sprint(ocMs(12))+` WHERE id = 'msg_a4'`,
		`UPDATE part SET data = '{"type":"text","text":"Working on it: done."}', time_updated = `+fmt.Sprint(ocMs(12))+` WHERE id = 'prt_a4'`)
	finished, _, _ := read(grown.Cursor)
	if got := sessionTurns(finished); len(got) != 2 || got[1] != "  assistant: Working on it: done." {
		t.Errorf("finished: %q, want the finished reply alone", got)
	}
	if finished.Cursor.More || finished.Cursor.Lines != 4 {
		t.Errorf("finished: cursor %+v", finished.Cursor)
	}

	// An undo deletes the last exchange and the person types something else.
	execAll(t, db,
		`DELETE FROM part WHERE message_id IN ('msg_a3', 'msg_a4')`,
		`DELETE FROM message WHERE id IN ('msg_a3', 'msg_a4')`,
		ocMessage("msg_a5", "ses_a", 20, ocUser(20)),
		ocPart("prt_a5", "msg_a5", "ses_a", 20, `{"type":"text","text":"Actually, use podman."}`),
		ocMessage("msg_a6", "ses_a", 21, ocAssistant(21, true)))
	rewritten, from, _ := read(finished.Cursor)
	if from.Lines != 0 {
		t.Errorf("rewritten: read from %+v, want the start", from)
	}
	if got := users(rewritten); len(got) != 2 || got[1] != "Actually, use podman." {
		t.Errorf("rewritten: user turns %q, want the session again with the new turn", got)
	}
}

func TestOpencodeSourcePaths(t *testing.T) {
	dir := t.TempDir()
	a, _ := New("opencode")
	_, skipped, err := a.Discover(Source{Kind: "opencode", Path: filepath.Join(dir, "kilo", "kilo.db")})
	if err != nil || len(skipped) != 1 || skipped[0].Reason != "source path does not exist" {
		t.Errorf("missing database: %+v, %v", skipped, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "opencode.db"), []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, skipped, err := a.Discover(Source{Kind: "opencode", Path: dir})
	if err != nil || len(files) != 0 || len(skipped) != 1 || !strings.HasPrefix(skipped[0].Reason, "unreadable") {
		t.Errorf("a file that is no database: %v %+v, %v", files, skipped, err)
	}
}

// TestDatabaseReadOnly checks that reading leaves the agent's database as it was while the
// agent holds it open and writes: no error, the rows it committed are seen.
func TestDatabaseReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opencode.db")
	db := ocFixture(t, path)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin() // the agent in the middle of a write
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ocSession("ses_c", "", ocShop, 30)); err != nil {
		t.Fatal(err)
	}
	a, _ := New("opencode")
	files, _, err := a.Discover(Source{Kind: "opencode", Path: path})
	if err != nil || len(files) != 2 {
		t.Fatalf("discover during a write: %d files, %v", len(files), err)
	}
	if _, err := a.Read(files[0], Cursor{}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("reading changed the database file")
	}
	if _, err := openDatabase(filepath.Dir(path)); err == nil {
		t.Error("a folder opened as a database")
	}
}

// crushSessions are the statements of a Crush project's database: a session with the lesson, a
// failed tool call, a bang-mode shell command and the request Crush queued again after a
// summary; a sub-agent's session.
var crushStatements = []string{
	`INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at) VALUES ('s1', NULL, 'Lint', 1795729300, 1795729000)`,
	`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at, finished_at) VALUES
		('u1', 's1', 'user', '[{"type":"text","data":{"text":"Always run make lint before committing."}}]', 1795729000, 1795729000, NULL),
		('a1', 's1', 'assistant', '[{"type":"reasoning","data":{"thinking":"hm"}},{"type":"tool_call","data":{"id":"t1","name":"bash","input":"{\"command\":\"make lint\"}","finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1795729001}}]', 1795729001, 1795729001, 1795729001),
		('t1', 's1', 'tool', '[{"type":"tool_result","data":{"tool_call_id":"t1","name":"bash","content":"make: *** No rule to make target ''lint''.  Stop.","is_error":true}}]', 1795729002, 1795729002, NULL),
		('a2', 's1', 'assistant', '[{"type":"text","data":{"text":"There is no lint target."}},{"type":"finish","data":{"reason":"end_turn","time":1795729003}}]', 1795729003, 1795729003, 1795729003),
		('u2', 's1', 'user', '[{"type":"shell_command","data":{"command":"go vet ./...","output":"vet: bad","exit_code":1}}]', 1795729004, 1795729004, NULL),
		('u3', 's1', 'user', '[{"type":"text","data":{"text":"The previous session was interrupted because it got too long, the initial user request was: ` + "`Always run make lint`" + `"}}]', 1795729005, 1795729005, NULL),
		('a3', 's1', 'assistant', '[{"type":"text","data":{"text":"A summary."}}]', 1795729006, 1795729006, 1795729006)`,
	`UPDATE messages SET is_summary_message = 1 WHERE id = 'a3'`,
	`INSERT INTO sessions (id, parent_session_id, title, updated_at, created_at) VALUES ('s2', 's1', 'Task', 1795729100, 1795729100)`,
	`INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) VALUES ('u9', 's2', 'user', '[{"type":"text","data":{"text":"Sub-agent task: count"}}]', 1795729100, 1795729100)`,
}

func TestCrushDiscoverAndRead(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "shop")
	newDatabase(t, filepath.Join(project, ".crush", "crush.db"), "crush", crushStatements...)
	data := filepath.Join(home, ".local", "share", "crush")
	gone := filepath.Join(home, "src", "gone")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	list := fmt.Sprintf(`{"projects":[{"path":%q,"data_dir":%q,"last_accessed":"2026-11-26T10:00:00Z"},{"path":%q,"data_dir":%q},{"path":"relative"}]}`,
		project, filepath.Join(project, ".crush"), gone, filepath.Join(gone, ".crush"))
	if err := os.WriteFile(filepath.Join(data, "projects.json"), []byte(list), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _ := New("crush")
	files, skipped, err := a.Discover(Source{Kind: "crush", Path: data})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Project != project || filepath.Base(files[0].Path) != "s1" {
		t.Fatalf("files %+v, want session s1 of %s", files, project)
	}
	var reasons []string
	for _, s := range skipped {
		reasons = append(reasons, filepath.Base(s.Path)+": "+s.Reason)
	}
	slices.Sort(reasons)
	if len(reasons) != 2 || !strings.Contains(reasons[0], "no database") || !strings.HasPrefix(reasons[1], "s2: ") || !strings.Contains(reasons[1], "sub-agent") {
		t.Errorf("skipped %q, want the moved project and the sub-agent's session", reasons)
	}
	r, err := a.Read(files[0], Cursor{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"s1 " + project + " 2026-11-26 cut=1",
		"  user: Always run make lint before committing.",
		"  tool: bash: make lint",
		"  tool (error): make: *** No rule to make target 'lint'.  Stop.",
		"  assistant: There is no lint target.",
		"  tool: shell: go vet ./...",
		"  tool (error): vet: bad",
	}
	if got := sessionTurns(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// One database named by the source: the project is the folder .crush is in.
	files, _, err = a.Discover(Source{Kind: "crush", Path: filepath.Join(project, ".crush", "crush.db")})
	if err != nil || len(files) != 1 || files[0].Project != project {
		t.Errorf("one database: %+v, %v", files, err)
	}
	if _, p, err := Peek(a, File{Kind: "crush", Path: files[0].Path}); p != project || err != nil {
		t.Errorf("Peek: %q, %v", p, err)
	}
}

func TestParseCrushProjects(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{`{"projects":[{"path":"/p","data_dir":"/p/.crush"}]}`, "/p=/p/.crush"},
		{`{"projects":[{"path":"/p"}]}`, "/p=/p/.crush"},
		{`{"projects":[{"path":"/p","data_dir":"data"}]}`, "/p=/p/data"},
		{`{"projects":[{"path":"p","data_dir":"/p/.crush"}]}`, ""},
		{`{"projects":null}`, ""},
	}
	for _, tt := range tests {
		got, err := parseCrushProjects([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		var s []string
		for _, p := range got {
			s = append(s, filepath.ToSlash(p.Path)+"="+filepath.ToSlash(p.DataDir))
		}
		if strings.Join(s, ",") != tt.want {
			t.Errorf("%s: %q, want %q", tt.in, s, tt.want)
		}
	}
	if _, err := parseCrushProjects([]byte(`[`)); err == nil {
		t.Error("malformed projects.json: no error")
	}
}

func TestMillis(t *testing.T) {
	for _, tt := range []struct {
		in   int64
		want time.Time
	}{
		{0, time.Time{}},
		{1795729000, time.Unix(1795729000, 0)},
		{1795729000123, time.UnixMilli(1795729000123)},
	} {
		if got := millis(tt.in); !got.Equal(tt.want) {
			t.Errorf("millis(%d) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func FuzzOpencodeTurns(f *testing.F) {
	f.Add(ocUser(1), `{"type":"text","text":"hello"}`)
	f.Add(ocAssistant(1, true), `{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"x"},"metadata":{"exit":1}}}`)
	f.Add(`{"role":"assistant","error":{"name":"APIError","data":{"message":"boom"}}}`, `{"type":"text","synthetic":true,"text":"x"}`)
	f.Add(`{"role":"user"}`, `{"type":"text","text":`)
	f.Add(`{"role":"assistant"}`, `{"type":"tool","tool":"question","state":{"status":"completed","input":{"questions":[{"question":"Q?"},{"question":2}]},"metadata":{"answers":[["a"],"b",[1]]}}}`)
	f.Fuzz(func(t *testing.T, data, part string) {
		turns, cut := opencodeTurns(data, []string{part, part}, time.Time{})
		if cut < 0 || cut > 2 {
			t.Fatalf("cut %d of 2 parts", cut)
		}
		for _, turn := range turns {
			if turn.Role == User && strings.Contains(part, `"synthetic":true`) && strings.Count(part, `"synthetic"`) == 1 {
				t.Fatalf("a synthetic part read as the person's: %q", turn.Text)
			}
		}
		opencodeMessageState(data)
	})
}

func FuzzCrushTurns(f *testing.F) {
	f.Add("user", `[{"type":"text","data":{"text":"hello"}}]`)
	f.Add("assistant", `[{"type":"tool_call","data":{"name":"bash","input":"{\"command\":\"x\"}"}},{"type":"finish","data":{"reason":"error","message":"m"}}]`)
	f.Add("tool", `[{"type":"tool_result","data":{"is_error":true,"content":"bad"}}]`)
	f.Add("user", `[{"type":"shell_command","data":{"command":"ls","exit_code":2}}]`)
	f.Add("user", `[{`)
	f.Fuzz(func(t *testing.T, role, parts string) {
		turns, _ := crushTurns(role, parts, time.Time{})
		for _, turn := range turns {
			if turn.Role == User && (role != "user" || strings.HasPrefix(turn.Text, crushResumed)) {
				t.Fatalf("user turn %q from a %s message", turn.Text, role)
			}
		}
	})
}

// TestRecordedDatabases reads the sessions real agents wrote (testdata/database/<agent>-<version>
// .sql, a dump of their database: the lesson, whose `make lint` fails, and for Kilo a first run
// stopped before the model answered) through the opencode kind: the person's words only, the
// project and day, the failed shell command.
func TestRecordedDatabases(t *testing.T) {
	const lesson = "Always run make lint before committing. Please run the linter now."
	tests := []struct {
		dump     string
		sessions int
		words    []string // the user turns, in order
	}{
		{"opencode-1.18.33", 1, []string{`"Our fixtures live in testdata/golden. ` + lesson + `"`}}, // opencode run quotes an argument with spaces
		{"kilo-7.7.7", 2, []string{lesson, lesson}},
	}
	for _, tt := range tests {
		t.Run(tt.dump, func(t *testing.T) {
			stmts, err := os.ReadFile(filepath.Join("testdata", "database", tt.dump+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "agent.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			execAll(t, db, "PRAGMA journal_mode=WAL", string(stmts))
			db.Close()
			a, _ := New("opencode")
			files, skipped, err := a.Discover(Source{Kind: "opencode", Path: path})
			if err != nil || len(files) != tt.sessions || len(skipped) != 0 {
				t.Fatalf("discover: %d sessions, skipped %v, %v; want %d", len(files), skipped, err, tt.sessions)
			}
			var users []string
			failed := false
			for _, f := range files {
				r, err := a.Read(f, Cursor{})
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range r.Sessions {
					if s.Project != "/home/user/src/shop" || s.Started.UTC().Format("2006-01-02") != "2026-11-26" {
						t.Errorf("session %s: project %q, started %v", s.ID, s.Project, s.Started)
					}
					for _, turn := range s.Turns {
						switch {
						case turn.Role == User:
							users = append(users, turn.Text)
						case turn.IsError && strings.Contains(turn.Text, "No rule to make target 'lint'"):
							failed = true
						}
					}
				}
			}
			if strings.Join(users, "\n") != strings.Join(tt.words, "\n") {
				t.Errorf("user turns %q, want %q", users, tt.words)
			}
			if !failed {
				t.Error("no error turn for the failed make lint")
			}
		})
	}
}

// TestGone: a session deleted from an agent's database is gone, as is a deleted file or database;
// a session still there, or a file, is not (phases.Lost reports what was gone before being read).
func TestGone(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "opencode.db")
	db := ocFixture(t, dbPath)
	plain := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(plain, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	execAll(t, db, `DELETE FROM part WHERE session_id = 'ses_b'`, `DELETE FROM message WHERE session_id = 'ses_b'`, `DELETE FROM session WHERE id = 'ses_b'`)
	for _, tc := range []struct {
		path string
		gone bool
	}{
		{filepath.Join(dbPath, "ses_a"), false},
		{filepath.Join(dbPath, "ses_b"), true},
		{plain, false},
		{filepath.Join(dir, "deleted.jsonl"), true},
		{filepath.Join(dir, "deleted.db", "ses_a"), true},
	} {
		if got := Gone(tc.path); got != tc.gone {
			t.Errorf("Gone(%s) = %v, want %v", filepath.Base(filepath.Dir(tc.path))+"/"+filepath.Base(tc.path), got, tc.gone)
		}
	}
}
