package transcript

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
	_ "modernc.org/sqlite" // pure Go: dreamd builds with CGO_ENABLED=0
)

// Agents that keep their sessions in a SQLite database (OpenCode and Kilo, Crush) hold many
// sessions, of many projects, in one file that they change in place. dreamd lists each session of
// such a database as a File of its own, whose Path is the database's path joined with the session
// id (…/opencode.db/ses_…), so each session is routed to its project's store and has its own
// cursor, as a transcript file does.
//
// The cursor of a database session counts messages instead of lines: Lines is how many of the
// session's messages (in the order the agent made them) were consumed, Offset the bytes of their
// records, Size and ModTime the session's bytes and last change when it was read, and Head the
// hash of the consumed messages' ids. A session that grew is read from its first new message; one
// whose consumed messages changed (an undo, a revert, a compaction that deleted messages) is read
// again from the start. A last message the agent is still writing (an assistant reply without its
// end) is left for the next read, which More says.
//
// The database is opened read-only (mode=ro) with a busy timeout, and read in one transaction:
// a consistent snapshot while the agent writes. SQLite's WAL protocol lets a reader share the
// agent's -wal and -shm files; a reader that finds none (the agent not running) creates them
// empty, as the agent itself would, and leaves them to it.

// dbSchema is what one agent's database looks like to the shared reader.
type dbSchema interface {
	// sessions lists the database's sessions.
	sessions(ctx context.Context, tx *sql.Tx) ([]dbSession, error)
	// session reads one session's row; errNoSession when it is gone.
	session(ctx context.Context, tx *sql.Tx, id string) (dbSession, error)
	// messages lists one session's messages in the order the agent made them.
	messages(ctx context.Context, tx *sql.Tx, id string) ([]dbMessage, error)
	// turns reads the given messages (a tail of the session's) into turns.
	turns(ctx context.Context, tx *sql.Tx, s dbSession, msgs []dbMessage, p *parse) error
}

// dbSession is a session's row, with its size: what discovery and the cursor need.
type dbSession struct {
	id, parent, project string
	started, updated    time.Time
	size                int64 // the bytes of its messages' records
}

// sessionQueries are how one schema lists its sessions. list selects each session's id, parent id,
// project, and creation and last change (ms since the epoch); each of sizes selects a session id,
// the bytes of its records and their last change, grouped by session. Each has a %s where a WHERE
// clause narrows it to one session.
type sessionQueries struct {
	list  string
	sizes []string
}

// all lists every session of the database.
func (q sessionQueries) all(ctx context.Context, tx *sql.Tx) ([]dbSession, error) {
	return q.run(ctx, tx, "", "")
}

// one is the session id; errNoSession when the database has no such session.
func (q sessionQueries) one(ctx context.Context, tx *sql.Tx, id string) (dbSession, error) {
	list, err := q.run(ctx, tx, "WHERE id = ?", "WHERE session_id = ?", id)
	switch {
	case err != nil:
		return dbSession{id: id}, err
	case len(list) == 0:
		return dbSession{id: id}, errNoSession
	}
	return list[0], nil
}

// run lists the sessions the where clauses (of the list query, of the sizes queries) select.
func (q sessionQueries) run(ctx context.Context, tx *sql.Tx, whereList, whereSizes string, args ...any) ([]dbSession, error) {
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(q.list, whereList), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []dbSession
	index := map[string]int{}
	for rows.Next() {
		var s dbSession
		var created, updated int64
		if err := rows.Scan(&s.id, &s.parent, &s.project, &created, &updated); err != nil {
			return nil, err
		}
		s.started, s.updated = millis(created), millis(updated)
		index[s.id] = len(out)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close() // before the next query of the transaction
	for _, sizes := range q.sizes {
		if err := addSizes(ctx, tx, fmt.Sprintf(sizes, whereSizes), out, index, args...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// addSizes adds each session's bytes and last change, as the query lists them by session id.
func addSizes(ctx context.Context, tx *sql.Tx, query string, out []dbSession, index map[string]int, args ...any) error {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var size, updated sql.NullInt64
		if err := rows.Scan(&id, &size, &updated); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			out[i].size += size.Int64
			if t := millis(updated.Int64); t.After(out[i].updated) {
				out[i].updated = t
			}
		}
	}
	return rows.Err()
}

// dbMessage is a message's row, without its content.
type dbMessage struct {
	id       string
	role     string
	created  time.Time
	size     int64 // the bytes of its records (the message and its parts)
	seq      int64 // its rowid, where the order of ids is not the agent's (Crush)
	complete bool  // written to its end (a user message always is)
}

var errNoSession = errors.New("no such session in the database")

// dbQueryTimeout bounds one reading of a database; busyTimeout how long a query waits for the
// agent's lock (a WAL reader only waits while the agent checkpoints or recovers).
const (
	dbQueryTimeout = 2 * time.Minute
	busyTimeout    = 5 * time.Second
)

// openDatabase opens a SQLite database read-only. It fails on a path that is no regular file, so
// a FIFO named like a database cannot hang a pass.
func openDatabase(path string) (*sql.DB, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	u := url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(path)}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	u.RawQuery = q.Encode()
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// inSnapshot runs fn in one read transaction of the database at path.
func inSnapshot(path string, fn func(ctx context.Context, tx *sql.Tx) error) error {
	db, err := openDatabase(path)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), dbQueryTimeout)
	defer cancel()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer tx.Rollback()
	if err := fn(ctx, tx); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// SessionPath is the Path of one session of a database: the database's path joined with the
// session id.
func SessionPath(db, id string) string { return filepath.Join(db, id) }

// splitSessionPath is the database and the session id of a SessionPath.
func splitSessionPath(path string) (db, id string) { return filepath.Dir(path), filepath.Base(path) }

// isDatabase reports whether a kind keeps its sessions in a database.
func isDatabase(kind string) bool { return kind == opencodeKind || kind == crushKind }

// schemaOf is the schema of a database kind.
func schemaOf(kind string) dbSchema {
	if kind == crushKind {
		return crushSchema{}
	}
	return opencodeSchema{}
}

// dbFiles lists the sessions of one database as files: sub-agents' sessions are passed over with
// why, as are sessions with no message yet. project, when set, is the project of every session
// (a configured one, or Crush's per-project database).
func dbFiles(kind, db string, src Source, project string) ([]File, []Skipped, error) {
	var all []dbSession
	err := inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		all, err = schemaOf(kind).sessions(ctx, tx)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	var files []File
	var skipped []Skipped
	for _, s := range all {
		path := SessionPath(db, s.id)
		switch {
		case s.parent != "":
			skipped = append(skipped, Skipped{Path: path, Reason: fmt.Sprintf("%v (a sub-agent's session of %s), left out like Claude Code's sidechains", ErrSubThread, s.parent)})
		case s.size == 0:
			// Nothing written yet: listed once it has a message.
		default:
			files = append(files, File{Kind: kind, Path: path, Size: s.size, ModTime: s.updated,
				Project: cmp.Or(src.Project, project, s.project), Store: src.Store})
		}
	}
	return files, skipped, nil
}

// messagesHash fingerprints the ids of the messages consumed.
func messagesHash(msgs []dbMessage) string {
	h := sha256.New()
	for _, m := range msgs {
		h.Write([]byte(m.id))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resumeDatabase is Resume for a database session (see the cursor above).
func resumeDatabase(f File, c Cursor) (Cursor, int64, error) {
	if c.Lines == 0 && c.Size == 0 {
		return Cursor{Offers: c.Offers}, f.Size, nil
	}
	if f.Size == c.Size && f.ModTime.Equal(c.ModTime) && !c.More {
		return c, 0, nil
	}
	db, id := splitSessionPath(f.Path)
	var msgs []dbMessage
	err := inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		msgs, err = schemaOf(f.Kind).messages(ctx, tx, id)
		return err
	})
	if err != nil {
		return Cursor{}, 0, err
	}
	if int64(len(msgs)) < c.Lines || messagesHash(msgs[:c.Lines]) != c.Head {
		return Cursor{}, f.Size, nil // rewritten: read it all again
	}
	pending := f.Size - c.Offset
	switch {
	case int64(len(msgs)) > c.Lines:
		pending = max(pending, 1)
	case pending < 0:
		pending = 0
	}
	if pending == 0 {
		return c, 0, nil
	}
	return c, pending, nil
}

// readDatabase is Read for a database session: the messages after the cursor.
func readDatabase(f File, from Cursor) (Reading, error) {
	db, id := splitSessionPath(f.Path)
	schema := schemaOf(f.Kind)
	p := newParse(f, from, id)
	p.name = filepath.Base(db) + ":" + id
	var r Reading
	err := inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		s, err := schema.session(ctx, tx, id)
		if err != nil {
			return err
		}
		if s.parent != "" {
			return nil // a sub-agent's: left out (see dbFiles)
		}
		msgs, err := schema.messages(ctx, tx, id)
		if err != nil {
			return err
		}
		done := int(from.Lines)
		if done > len(msgs) {
			done = 0 // rewritten since the cursor was taken
		}
		upTo := len(msgs)
		if upTo > done && !msgs[upTo-1].complete {
			upTo-- // still being written: read next time
		}
		var offset int64
		for _, m := range msgs[:upTo] {
			offset += m.size
		}
		r.Cursor = Cursor{Size: s.size, Offset: offset, Lines: int64(upTo), ModTime: s.updated, HeadLen: int64(upTo),
			Head: messagesHash(msgs[:upTo]), More: upTo < len(msgs), Session: id, Project: cmp.Or(p.file.Project, s.project)}
		p.learn(id, s.project)
		p.open(id, time.Time{})
		if upTo > done {
			if err := schema.turns(ctx, tx, s, msgs[done:upTo], p); err != nil {
				return err
			}
		}
		p.end()
		return nil
	})
	if errors.Is(err, errNoSession) {
		return Reading{Cursor: from}, err
	}
	if err != nil {
		return Reading{}, err
	}
	r.Sessions, r.Warnings = p.sessions, p.warnings
	r.Tail = r.Cursor.Head
	return r, nil
}

// peekDatabase is peek for a database session: its id and project, or ErrSubThread.
func peekDatabase(f File) (string, string, error) {
	db, id := splitSessionPath(f.Path)
	if f.Project != "" {
		return id, f.Project, nil // listed from the database just now
	}
	var s dbSession
	err := inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		s, err = schemaOf(f.Kind).session(ctx, tx, id)
		return err
	})
	if err != nil {
		return id, "", err
	}
	if s.parent != "" {
		return id, s.project, fmt.Errorf("%w (a sub-agent's session of %s)", ErrSubThread, s.parent)
	}
	return id, s.project, nil
}

// StatSession is os.Stat for a transcript that may be a database session: its File as discovery
// would list it (kind is the file's adapter kind).
func StatSession(kind, path string) (File, error) {
	if !isDatabase(kind) {
		fi, err := os.Stat(path)
		if err != nil {
			return File{}, err
		}
		return File{Kind: kind, Path: path, Size: fi.Size(), ModTime: fi.ModTime()}, nil
	}
	db, id := splitSessionPath(path)
	var s dbSession
	err := inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		s, err = schemaOf(kind).session(ctx, tx, id)
		return err
	})
	if err != nil {
		return File{}, err
	}
	return File{Kind: kind, Path: path, Size: s.size, ModTime: s.updated}, nil
}

// SessionTail is TailHash for a transcript that may be a database session, read to c: for a
// session, the hash of the messages it was read to (a file's is the bytes before c.Offset).
func SessionTail(kind, path string, c Cursor) (string, error) {
	if !isDatabase(kind) {
		f, _, err := safefile.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		return TailHash(f, c.Offset)
	}
	db, id := splitSessionPath(path)
	var msgs []dbMessage
	err := inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		msgs, err = schemaOf(kind).messages(ctx, tx, id)
		return err
	})
	if err != nil {
		return "", err
	}
	if int64(len(msgs)) < c.Lines {
		return "", fmt.Errorf("%s: %d messages, the cursor is past them", path, len(msgs))
	}
	return messagesHash(msgs[:c.Lines]), nil
}

// millis is a time in Unix milliseconds (OpenCode's), seconds (Crush's) being told by size.
func millis(n int64) time.Time {
	if n <= 0 {
		return time.Time{}
	}
	if n < 1e11 { // seconds: before 5138 AD
		return time.Unix(n, 0)
	}
	return time.UnixMilli(n)
}

// Gone reports whether the transcript at path no longer exists: its file, or, for a session of
// an agent's database (<database>/<session id>, a path that is no file), the session in the
// database, which is asked. A database that cannot be read says nothing is gone.
func Gone(path string) bool {
	_, err := os.Lstat(path)
	if err == nil {
		return false
	}
	db, id := splitSessionPath(path)
	if fi, dbErr := os.Stat(db); dbErr == nil && fi.Mode().IsRegular() {
		return sessionGone(db, id)
	}
	return errors.Is(err, fs.ErrNotExist)
}

// sessionGone reports whether the database at db, of either schema, has no session id.
func sessionGone(db, id string) bool {
	gone := false
	_ = inSnapshot(db, func(ctx context.Context, tx *sql.Tx) error {
		for _, schema := range []dbSchema{opencodeSchema{}, crushSchema{}} {
			if _, err := schema.session(ctx, tx, id); errors.Is(err, errNoSession) {
				gone = true
			}
		}
		return nil
	})
	return gone
}
