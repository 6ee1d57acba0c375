package transcript

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/tidwall/gjson"
)

// crush reads Crush's sessions: one SQLite database per project, <project>/.crush/crush.db, the
// projects listed in $XDG_DATA_HOME/crush/projects.json ({"projects": [{"path", "data_dir"}]}),
// with the tables
//
//	sessions (id, parent_session_id, title, created_at, updated_at, …)          times in seconds
//	messages (id, session_id, role, parts, created_at, updated_at, finished_at, is_summary_message, …)
//
// where parts is a JSON array of {"type", "data"}: text, reasoning, tool_call, tool_result,
// finish, binary, image_url, shell_command. A source names the folder holding projects.json (or
// the file itself), or one crush.db, whose project is the folder its .crush folder is in. Each
// session is a File of its own (see database.go). A session with a parent_session_id is a
// sub-agent's (the agent tool) or a title's, left out; the text Crush sends again after it
// summarized a long session ("The previous session was interrupted …") is not the person's.
type crush struct{}

const (
	crushKind     = "crush"
	crushProjects = "projects.json"
	crushDB       = "crush.db"
	// crushResumed starts the request Crush queues again after summarizing a session that ran
	// out of context: the person's first request, quoted, not new words.
	crushResumed = "The previous session was interrupted because it got too long"
	// maxProjectsFile bounds projects.json.
	maxProjectsFile = 4 << 20
)

func (crush) Kind() string { return crushKind }

func (crush) Discover(src Source) ([]File, []Skipped, error) {
	dbs, skipped, err := crushDatabases(src.Path)
	if err != nil {
		return nil, skipped, err
	}
	var files []File
	for _, db := range dbs {
		if _, err := os.Stat(db.path); errors.Is(err, os.ErrNotExist) {
			skipped = append(skipped, Skipped{Path: db.path, Reason: "listed in Crush's " + crushProjects + ", but there is no database (the project moved or was deleted)"})
			continue
		}
		f, s, err := dbFiles(crushKind, db.path, src, db.project)
		if err != nil {
			skipped = append(skipped, Skipped{Path: db.path, Reason: "unreadable: " + err.Error()})
			continue
		}
		files, skipped = append(files, f...), append(skipped, s...)
	}
	return files, skipped, nil
}

// crushDatabase is one project's database.
type crushDatabase struct{ path, project string }

// crushDatabases lists the databases a Crush source names: those projects.json lists, or the
// one database the path names.
func crushDatabases(path string) ([]crushDatabase, []Skipped, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, []Skipped{{Path: path, Reason: "source path does not exist"}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	list := path
	switch {
	case fi.IsDir():
		list = filepath.Join(path, crushProjects)
	case filepath.Base(path) != crushProjects:
		// One database: <project>/.crush/crush.db.
		return []crushDatabase{{path: path, project: filepath.Dir(filepath.Dir(path))}}, nil, nil
	}
	data, err := safefile.ReadFile(list, maxProjectsFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, []Skipped{{Path: list, Reason: "no " + crushProjects + " (Crush has not run here yet)"}}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	projects, err := parseCrushProjects(data)
	if err != nil {
		return nil, []Skipped{{Path: list, Reason: "unreadable: " + err.Error()}}, nil
	}
	var dbs []crushDatabase
	for _, p := range projects {
		dbs = append(dbs, crushDatabase{path: filepath.Join(p.DataDir, crushDB), project: p.Path})
	}
	return dbs, nil, nil
}

// crushProject is one entry of projects.json.
type crushProject struct {
	Path    string `json:"path"`
	DataDir string `json:"data_dir"`
}

// parseCrushProjects reads projects.json: the projects with an absolute path, each with its data
// folder (<path>/.crush unless it says otherwise; a relative one is taken from the project).
func parseCrushProjects(data []byte) ([]crushProject, error) {
	var list struct {
		Projects []crushProject `json:"projects"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, err
	}
	var out []crushProject
	for _, p := range list.Projects {
		if !filepath.IsAbs(p.Path) {
			continue
		}
		p.Path = filepath.Clean(p.Path)
		switch {
		case p.DataDir == "":
			p.DataDir = filepath.Join(p.Path, ".crush")
		case !filepath.IsAbs(p.DataDir):
			p.DataDir = filepath.Join(p.Path, p.DataDir)
		}
		out = append(out, p)
	}
	return out, nil
}

func (crush) Read(f File, from Cursor) (Reading, error) {
	f.Kind = crushKind
	if f.Project == "" {
		f.Project = crushProjectOf(f.Path)
	}
	return readDatabase(f, from)
}

func (crush) peek(f File) (string, string, error) {
	f.Kind = crushKind
	if f.Project == "" {
		f.Project = crushProjectOf(f.Path)
	}
	id, _, err := peekDatabase(File{Kind: crushKind, Path: f.Path})
	return id, f.Project, err
}

// crushProjectOf is the project of a session of <project>/.crush/crush.db: a database in a data
// folder elsewhere names none.
func crushProjectOf(sessionPath string) string {
	db, _ := splitSessionPath(sessionPath)
	if data := filepath.Dir(db); filepath.Base(data) == ".crush" {
		return filepath.Dir(data)
	}
	return ""
}

type crushSchema struct{}

// crushSessions lists Crush's sessions (a project's database: no project column) with the bytes of
// their messages.
var crushSessions = sessionQueries{
	list:  `SELECT id, coalesce(parent_session_id, ''), '', created_at, updated_at FROM sessions %s ORDER BY created_at, rowid`,
	sizes: []string{`SELECT session_id, sum(octet_length(parts)), max(updated_at) FROM messages %s GROUP BY session_id`},
}

func (crushSchema) sessions(ctx context.Context, tx *sql.Tx) ([]dbSession, error) {
	return crushSessions.all(ctx, tx)
}

func (crushSchema) session(ctx context.Context, tx *sql.Tx, id string) (dbSession, error) {
	return crushSessions.one(ctx, tx, id)
}

func (crushSchema) messages(ctx context.Context, tx *sql.Tx, id string) ([]dbMessage, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, role, created_at, finished_at IS NOT NULL, octet_length(parts), rowid
		FROM messages WHERE session_id = ? ORDER BY created_at, rowid`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dbMessage
	for rows.Next() {
		var m dbMessage
		var created int64
		var finished bool
		var size sql.NullInt64
		if err := rows.Scan(&m.id, &m.role, &created, &finished, &size, &m.seq); err != nil {
			return nil, err
		}
		m.created, m.size = millis(created), size.Int64
		m.complete = finished || m.role != "assistant"
		out = append(out, m)
	}
	return out, rows.Err()
}

func (crushSchema) turns(ctx context.Context, tx *sql.Tx, s dbSession, msgs []dbMessage, p *parse) error {
	summary := "0"
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'is_summary_message'`).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		summary = "is_summary_message"
	}
	first := msgs[0]
	rows, err := tx.QueryContext(ctx, `SELECT id, role, parts, created_at, `+summary+` FROM messages
		WHERE session_id = ? AND (created_at > ? OR created_at = ? AND rowid >= ?) ORDER BY created_at, rowid`,
		s.id, first.created.Unix(), first.created.Unix(), first.seq)
	if err != nil {
		return err
	}
	defer rows.Close()
	wanted := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		wanted[m.id] = true
	}
	for rows.Next() {
		var id, role string
		var parts []byte
		var created int64
		var isSummary int64
		if err := rows.Scan(&id, &role, &parts, &created, &isSummary); err != nil {
			return err
		}
		if !wanted[id] || isSummary != 0 {
			continue
		}
		turns, cut := crushTurns(role, string(parts), millis(created))
		for range cut {
			p.drop()
		}
		for _, t := range turns {
			p.add(t)
		}
	}
	return rows.Err()
}

// crushTurns maps one message's parts to turns, and counts the text parts of a user message that
// are not the person's words. A user's text parts are the person's; a shell command typed in
// Crush's bang mode is a Tool line (with its output when it failed); an assistant's text parts
// are its prose, each tool_call a Tool line, a finish of reason error an error turn; a tool
// message's failed results are error turns. Reasoning and attachments are left out.
func crushTurns(role, parts string, created time.Time) (turns []Turn, cut int) {
	if !gjson.Valid(parts) {
		return nil, 0
	}
	gjson.Parse(parts).ForEach(func(_, part gjson.Result) bool {
		data := part.Get("data")
		switch part.Get("type").Str {
		case "text":
			text := data.Get("text").Str
			switch {
			case strings.TrimSpace(text) == "":
			case role == "user" && strings.HasPrefix(text, crushResumed):
				cut++
			case role == "user":
				turns = append(turns, Turn{Role: User, Text: text})
			case role == "assistant":
				turns = append(turns, Turn{Role: Assistant, Text: prefix(text, 2*maxAssistantText)})
			}
		case "shell_command":
			turns = append(turns, Turn{Role: Tool, Text: toolLine("shell", data.Get("command").Str)})
			if code := data.Get("exit_code").Int(); code != 0 {
				out := cmpOr(data.Get("output").Str, fmt.Sprintf("exit code %d", code))
				turns = append(turns, Turn{Role: Tool, Text: prefix(out, 2*maxToolError), IsError: true})
			}
		case "tool_call":
			if role == "assistant" {
				turns = append(turns, Turn{Role: Tool, Text: toolLine(data.Get("name").Str, toolArg(data.Get("input").Str)), Dir: toolDir(data.Get("input").Str)})
			}
		case "tool_result":
			if data.Get("is_error").Bool() {
				what := cmp.Or(strings.TrimSpace(data.Get("content").Str), data.Get("name").Str+" failed")
				turns = append(turns, Turn{Role: Tool, Text: prefix(what, 2*maxToolError), IsError: true})
			}
		case "finish":
			if data.Get("reason").Str == "error" {
				what := cmpOr(data.Get("details").Str, data.Get("message").Str, "the reply failed")
				turns = append(turns, Turn{Role: Tool, Text: prefix(what, 2*maxToolError), IsError: true})
			}
		}
		return true
	})
	for i := range turns {
		turns[i].Time = created
	}
	return turns, cut
}
