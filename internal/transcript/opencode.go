package transcript

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// opencode reads OpenCode's sessions, and Kilo's (Kilo Code's CLI is OpenCode's, with its own
// data folder): one SQLite database for every project, $XDG_DATA_HOME/opencode/opencode.db and
// ~/.local/share/kilo/kilo.db, with the tables
//
//	session (id, parent_id, directory, time_created, time_updated, …)   times in milliseconds
//	message (id, session_id, time_created, time_updated, data)          data: role, time, summary, error
//	part    (id, message_id, session_id, time_created, time_updated, data)  data: type, text, synthetic, tool, state
//
// A source names a database, or a folder holding them (*.db). Each session is a File of its own
// (see database.go). The person's words are a user message's text parts, except those OpenCode
// marks synthetic (file contents it read for an @mention, "continue" after a compaction) or
// ignored; a session with a parent_id is a sub-agent's (the task tool), left out.
type opencode struct{}

const opencodeKind = "opencode"

func (opencode) Kind() string { return opencodeKind }

func (opencode) Discover(src Source) ([]File, []Skipped, error) {
	dbs, skipped, err := databases(src.Path, func(name string) bool { return strings.HasSuffix(name, ".db") })
	if err != nil || len(dbs) == 0 {
		return nil, skipped, err
	}
	var files []File
	for _, db := range dbs {
		f, s, err := dbFiles(opencodeKind, db, src, "")
		if err != nil {
			skipped = append(skipped, Skipped{Path: db, Reason: "unreadable: " + err.Error()})
			continue
		}
		files, skipped = append(files, f...), append(skipped, s...)
	}
	return files, skipped, nil
}

// databases lists the databases a source path names: itself, or the files of a folder that
// isDB accepts.
func databases(path string, isDB func(name string) bool) ([]string, []Skipped, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, []Skipped{{Path: path, Reason: "source path does not exist"}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if !fi.IsDir() {
		return []string{path}, nil, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, nil, err
	}
	var dbs []string
	for _, e := range entries {
		if e.Type().IsRegular() && isDB(e.Name()) {
			dbs = append(dbs, filepath.Join(path, e.Name()))
		}
	}
	return dbs, nil, nil
}

func (opencode) Read(f File, from Cursor) (Reading, error) {
	f.Kind = opencodeKind
	return readDatabase(f, from)
}

func (opencode) peek(f File) (string, string, error) {
	f.Kind = opencodeKind
	return peekDatabase(f)
}

type opencodeSchema struct{}

// opencodeSessions lists OpenCode's and Kilo's sessions with the bytes of their messages and parts.
var opencodeSessions = sessionQueries{
	list: `SELECT id, coalesce(parent_id, ''), coalesce(directory, ''), time_created, time_updated FROM session %s ORDER BY time_created, id`,
	sizes: []string{
		`SELECT session_id, sum(octet_length(data)), max(time_updated) FROM message %s GROUP BY session_id`,
		`SELECT session_id, sum(octet_length(data)), max(time_updated) FROM part %s GROUP BY session_id`,
	},
}

func (opencodeSchema) sessions(ctx context.Context, tx *sql.Tx) ([]dbSession, error) {
	return opencodeSessions.all(ctx, tx)
}

func (opencodeSchema) session(ctx context.Context, tx *sql.Tx, id string) (dbSession, error) {
	return opencodeSessions.one(ctx, tx, id)
}

func (opencodeSchema) messages(ctx context.Context, tx *sql.Tx, id string) ([]dbMessage, error) {
	rows, err := tx.QueryContext(ctx, `SELECT m.id, m.time_created, m.data,
		octet_length(m.data) + coalesce((SELECT sum(octet_length(p.data)) FROM part p WHERE p.message_id = m.id), 0)
		FROM message m WHERE m.session_id = ? ORDER BY m.time_created, m.id`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dbMessage
	for rows.Next() {
		var m dbMessage
		var created int64
		var data string
		if err := rows.Scan(&m.id, &created, &data, &m.size); err != nil {
			return nil, err
		}
		m.created = millis(created)
		m.role, m.complete = opencodeMessageState(data)
		out = append(out, m)
	}
	return out, rows.Err()
}

// opencodeMessageState reads a message's role from its data, and whether it is written to its
// end: a user message always is, an assistant message once it has its completion time or an
// error. Malformed data is a message of no role, complete (nothing is read from it).
func opencodeMessageState(data string) (role string, complete bool) {
	if !gjson.Valid(data) {
		return "", true
	}
	r := gjson.Parse(data)
	role = r.Get("role").Str
	if role != "assistant" {
		return role, true
	}
	return role, r.Get("time.completed").Exists() || r.Get("error").Exists()
}

// opencodeMessage is one message's data and parts, as turns() reads them.
type opencodeMessage struct {
	data  string
	parts []string
}

func (opencodeSchema) turns(ctx context.Context, tx *sql.Tx, s dbSession, msgs []dbMessage, p *parse) error {
	first := msgs[0]
	rows, err := tx.QueryContext(ctx, `SELECT m.id, m.data, p.data FROM message m LEFT JOIN part p ON p.message_id = m.id
		WHERE m.session_id = ? AND (m.time_created > ? OR m.time_created = ? AND m.id >= ?)
		ORDER BY m.time_created, m.id, p.id`, s.id, first.created.UnixMilli(), first.created.UnixMilli(), first.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	wanted := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		wanted[m.id] = true
	}
	byID := map[string]*opencodeMessage{}
	for rows.Next() {
		var id, data string
		var part sql.NullString
		if err := rows.Scan(&id, &data, &part); err != nil {
			return err
		}
		if !wanted[id] {
			continue
		}
		m := byID[id]
		if m == nil {
			m = &opencodeMessage{data: data}
			byID[id] = m
		}
		if part.Valid {
			m.parts = append(m.parts, part.String)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, msg := range msgs {
		if m := byID[msg.id]; m != nil {
			turns, cut := opencodeTurns(m.data, m.parts, msg.created)
			for range cut {
				p.drop()
			}
			for _, t := range turns {
				p.add(t)
			}
		}
	}
	return nil
}

// opencodeTurns maps one message and its parts to turns, and counts the text parts of a user
// message that are not the person's words (synthetic or ignored). A user message's text parts
// are the person's; an assistant's text parts its prose, each tool part a Tool line, with an
// error turn when the tool failed (an error status, or a shell command that exited non-zero);
// reasoning, step and snapshot parts are left out, as is the summary a compaction wrote.
func opencodeTurns(data string, parts []string, created time.Time) (turns []Turn, cut int) {
	if !gjson.Valid(data) {
		return nil, 0
	}
	msg := gjson.Parse(data)
	role := msg.Get("role").Str
	if role == "assistant" && msg.Get("summary").Bool() {
		return nil, 0
	}
	if t := parseTime(msg.Get("time.created")); !t.IsZero() {
		created = t
	}
	for _, raw := range parts {
		if !gjson.Valid(raw) {
			continue
		}
		part := gjson.Parse(raw)
		switch part.Get("type").Str {
		case "text":
			text := part.Get("text").Str
			switch {
			case strings.TrimSpace(text) == "":
			case part.Get("synthetic").Bool() || part.Get("ignored").Bool():
				if role == "user" {
					cut++
				}
			case role == "user":
				turns = append(turns, Turn{Role: User, Text: text})
			case role == "assistant":
				turns = append(turns, Turn{Role: Assistant, Text: prefix(text, 2*maxAssistantText)})
			}
		case "tool":
			if role == "assistant" {
				turns = append(turns, opencodeTool(part)...)
				if answers := opencodeAnswers(part); answers != "" { // answers.go
					turns = append(turns, Turn{Role: User, Text: answers})
				}
			}
		}
	}
	if e := msg.Get("error"); role == "assistant" && e.Exists() {
		what := firstString(e, "data.message", "message", "name")
		if what == "" {
			what = "the reply failed"
		}
		turns = append(turns, Turn{Role: Tool, Text: prefix(what, 2*maxToolError), IsError: true})
	}
	for i := range turns {
		turns[i].Time = created
	}
	return turns, cut
}

// opencodeTool is a tool part's line, and its error when it failed.
func opencodeTool(part gjson.Result) []Turn {
	name := part.Get("tool").Str
	state := part.Get("state")
	turns := []Turn{{Role: Tool, Text: toolLine(name, toolArg(state.Get("input").Raw)), Dir: toolDir(state.Get("input").Raw)}}
	exit := state.Get("metadata.exit")
	switch {
	case state.Get("status").Str == "error":
		turns = append(turns, Turn{Role: Tool, Text: prefix(cmpOr(state.Get("error").String(), name+" failed"), 2*maxToolError), IsError: true})
	case exit.Type == gjson.Number && exit.Int() != 0:
		out := cmpOr(state.Get("output").String(), state.Get("metadata.output").String(), fmt.Sprintf("exit code %d", exit.Int()))
		turns = append(turns, Turn{Role: Tool, Text: prefix(out, 2*maxToolError), IsError: true})
	}
	return turns
}

// firstString is the first of the paths that holds a non-empty string.
func firstString(r gjson.Result, paths ...string) string {
	for _, p := range paths {
		if v := r.Get(p); v.Type == gjson.String && strings.TrimSpace(v.Str) != "" {
			return v.Str
		}
	}
	return ""
}

// cmpOr is cmp.Or for strings that may be blank.
func cmpOr(s ...string) string {
	i := slices.IndexFunc(s, func(v string) bool { return strings.TrimSpace(v) != "" })
	if i < 0 {
		return ""
	}
	return s[i]
}
