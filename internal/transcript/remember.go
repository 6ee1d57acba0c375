package transcript

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"
	"github.com/tidwall/gjson"
)

// remember reads the notes `dreamd remember` queues: one file per note, one JSON line in it,
// under dreamd's own notes directory. A note is a session like any other, so the next pass
// consolidates it (merged, deduplicated, validated, redacted) instead of writing it into a store.
type remember struct{}

// RememberKind is the source kind of notes queued by `dreamd remember`; dreamd adds the source
// itself, it is not configured.
const RememberKind = "remember"

// Note is one remembered note.
type Note struct {
	Project string    `json:"project"`        // canonical project directory
	Type    string    `json:"type,omitempty"` // the memory type the person asked for, "" to let the pass decide
	Text    string    `json:"text"`
	Time    time.Time `json:"time"`
	// Origin is set on a note that carries a memory from one store to another (a project's pass
	// sending a lesson to the user's or the team's store): the memory keeps its sessions and dates.
	Origin *Origin `json:"origin,omitempty"`
}

// Origin is where a memory moved to another store was learnt: the sessions that taught it, the
// days it was first learnt and last confirmed, and the sessions that taught it again. The store
// it moves to writes these instead of the note's own id and the day of the move.
type Origin struct {
	Sources       []string `json:"sources,omitempty"`        // kind:id
	Learnt        string   `json:"learnt,omitempty"`         // YYYY-MM-DD
	Confirmed     string   `json:"confirmed,omitempty"`      // YYYY-MM-DD
	Retaught      []string `json:"retaught,omitempty"`       // kind:id@YYYY-MM-DD
	RetaughtCount int      `json:"retaught_count,omitempty"` // all of them, those the list no longer holds included
}

// WriteNote queues n in dir as a new note file and returns its path. The file is written
// atomically, so a pass never reads half a note.
func WriteNote(dir string, n Note) (string, error) {
	var suffix [4]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return "", err
	}
	return WriteNoteAs(dir, fmt.Sprintf("%s-%s", n.Time.UTC().Format("20060102T150405Z"), hex.EncodeToString(suffix[:])), n)
}

// WriteNoteAs queues n in dir under the note file named by id, replacing one of the same id: a
// writer that may run twice for one note (an apply retried) queues it once.
func WriteNoteAs(dir, id string, n Note) (string, error) {
	if strings.TrimSpace(n.Text) == "" {
		return "", errors.New("an empty note")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	line, err := json.Marshal(n)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "note-"+id+".jsonl")
	return path, renameio.WriteFile(path, append(line, '\n'), 0o600)
}

func (remember) Kind() string { return RememberKind }

// Discover lists the note files; no notes directory yet simply means nothing was remembered.
func (remember) Discover(src Source) ([]File, []Skipped, error) {
	if _, err := os.Stat(src.Path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	return discover(RememberKind, src, func(rel, _ string) (bool, string) {
		return strings.HasPrefix(filepath.Base(rel), "note-") && strings.HasSuffix(rel, ".jsonl"), ""
	})
}

func (remember) Read(f File, from Cursor) (Reading, error) {
	f.Kind = RememberKind
	return readLines(f, from, func(from Cursor) lineState {
		return &rememberState{parse: newParse(f, from, stem(f.Path))}
	})
}

func (remember) peek(f File) (string, string, error) {
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return "", "", err
	}
	project := gjson.GetBytes(data, "project").Str
	if project != "" {
		project = CanonicalProject(project)
	}
	return stem(f.Path), project, nil
}

type rememberState struct{ *parse }

// line turns a note into one user turn: the person asked for it to be kept, in so many words.
func (s *rememberState) line(b []byte, no int64) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return
	}
	line := view(b)
	if !gjson.Valid(line) {
		s.warn(no, "malformed note, skipped")
		return
	}
	n := gjson.Parse(line)
	s.learn("", n.Get("project").Str)
	text := "Remember this: " + n.Get("text").Str
	if typ := n.Get("type").Str; typ != "" {
		text = fmt.Sprintf("Remember this (as a %s memory): %s", typ, n.Get("text").Str)
	}
	s.add(Turn{Role: User, Text: text, Time: parseTime(n.Get("time"))})
	if o := n.Get("origin"); o.IsObject() && s.cur != nil {
		var origin Origin
		if json.Unmarshal([]byte(o.Raw), &origin) == nil {
			s.cur.Origin = &origin
		}
	}
}
