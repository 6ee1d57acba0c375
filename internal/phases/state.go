package phases

import (
	"encoding/json"
	"errors"
	"fmt"
	sjson "github.com/segmentio/encoding/json"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/google/renameio/v2"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// Per-store state files, inside store.Paths.State.
const (
	// cursorsFile moves only inside an apply transaction, so a rollback rewinds it with the store.
	cursorsFile = "cursors.json"
	// statusFile records the last pass for status and the gates; it is bookkeeping, not memory.
	statusFile = "status.json"
	// pendingDir holds plans waiting for `dreamd apply` (apply: review).
	pendingDir = "pending"
)

// Cursors maps a transcript path to how far it has been consolidated.
type Cursors map[string]transcript.Cursor

// Cursors live in cursorShards files, each holding the transcripts whose path hashes to it, so an
// apply journals (and keeps for rollback) only the shards whose cursors moved, not every cursor
// of the store: the history of a store with a thousand transcripts stays small. A quiet pass
// reads every shard of every store, so there are few of them: 64 took a quiet pass over 20,000
// transcripts in 20 stores from 0.56 s (256 shards) to 0.45 s. cursorsFile is the single file of
// earlier versions, read and replaced by shards on the next apply (see staleCursorFiles).
const cursorShards = 64

func shardFile(i int) string { return fmt.Sprintf("cursors-%03d.json", i) }

func shardOf(path string) int {
	h := fnv.New32a()
	h.Write([]byte(path))
	return int(h.Sum32() % cursorShards)
}

// LoadCursors reads a store's cursors; a store never consolidated has none.
func LoadCursors(p store.Paths) (Cursors, error) {
	out := Cursors{}
	files, err := filepath.Glob(filepath.Join(p.State, "cursors*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		var c struct {
			Cursors Cursors `json:"cursors"`
		}
		if err := readJSON(f, &c); err != nil {
			return nil, err
		}
		maps.Copy(out, c.Cursors)
	}
	return out, nil
}

// cursorImages are the state files an apply writes to move the cursors from cur to next: the
// shards that changed (nil for a shard left empty), and the old single file removed.
func cursorImages(p store.Paths, cur, next Cursors) map[string][]byte {
	shard := func(c Cursors) map[int]Cursors {
		out := map[int]Cursors{}
		for path, v := range c {
			i := shardOf(path)
			if out[i] == nil {
				out[i] = Cursors{}
			}
			out[i][path] = v
		}
		return out
	}
	before, after := shard(cur), shard(next)
	stale := staleCursorFiles(p)
	images := map[string][]byte{}
	for i := range cursorShards {
		b, a := before[i], after[i]
		if len(stale) == 0 && maps.EqualFunc(b, a, func(x, y transcript.Cursor) bool { return x == y }) {
			continue
		}
		if len(a) == 0 {
			if len(b) > 0 {
				images[shardFile(i)] = nil
			}
			continue
		}
		images[shardFile(i)] = encodeCursors(a)
	}
	for _, name := range stale {
		images[name] = nil
	}
	return images
}

// staleCursorFiles lists the cursor files of another layout (the single file of earlier versions,
// or shards of another count). While one exists, every shard is rewritten from all the cursors
// read, and the stale files removed, in the same apply.
func staleCursorFiles(p store.Paths) []string {
	files, _ := filepath.Glob(filepath.Join(p.State, "cursors*.json"))
	var stale []string
	for _, f := range files {
		name := filepath.Base(f)
		var i int
		if n, err := fmt.Sscanf(name, "cursors-%03d.json", &i); err == nil && n == 1 && i < cursorShards && name == shardFile(i) {
			continue
		}
		stale = append(stale, name)
	}
	return stale
}

// saveCursors moves a store's cursors outside an apply: only for material that changed nothing.
func saveCursors(p store.Paths, cur, next Cursors) error {
	if err := os.MkdirAll(p.State, 0o700); err != nil {
		return err
	}
	for name, data := range cursorImages(p, cur, next) {
		path := filepath.Join(p.State, name)
		if data == nil {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			continue
		}
		if err := renameio.WriteFile(path, data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// encodeCursors writes a shard compactly: a quiet pass reads every shard of every store, and
// indentation would double what it parses.
func encodeCursors(c Cursors) []byte {
	b, _ := json.Marshal(struct {
		Version int     `json:"version"`
		Cursors Cursors `json:"cursors"`
	}{1, c})
	return append(b, '\n')
}

// Status is a store's record of its last pass.
type Status struct {
	Store       string      `json:"store"`
	LastRun     time.Time   `json:"last_run"`
	LastResult  string      `json:"last_result"` // applied, pending review, rolled back, failed: …, refused: …
	LastRunID   string      `json:"last_run_id,omitempty"`
	LastSuccess time.Time   `json:"last_success"`
	LastApplied string      `json:"last_applied,omitempty"`
	Left        int         `json:"left,omitempty"` // transcript files the last applied pass left for the next (a backlog)
	Parked      *ParkedPlan `json:"parked,omitempty"`
}

// LoadStatus reads a store's status; zero when it has none.
func LoadStatus(p store.Paths) (Status, error) {
	var s Status
	err := readJSON(filepath.Join(p.State, statusFile), &s)
	return s, err
}

// saveStatus records the outcome of a pass. It is written outside the apply transaction on
// purpose: a failed pass must be recorded too.
func saveStatus(p store.Paths, s Status) error {
	s.Store = p.Store
	if err := os.MkdirAll(p.State, 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(s, "", "  ")
	return renameio.WriteFile(filepath.Join(p.State, statusFile), append(b, '\n'), 0o600)
}

// maxStateFile bounds a state file read back (a status, cursors of every session of a store).
const maxStateFile = 256 << 20

// readJSON reads one of dreamd's state files. It never blocks on what is not a regular file: a
// FIFO put in its place would hang every pass and status, SIGTERM included.
func readJSON(path string, v any) error {
	b, err := safefile.ReadFile(path, maxStateFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := sjson.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// recordRun notes a pass that applied nothing in the store's status, keeping its last success.
// An unreadable status is replaced: it holds nothing a pass needs (a parked plan in it no
// longer holds the store back).
func recordRun(p store.Paths, result, runID string, now time.Time) error {
	s, _ := LoadStatus(p)
	s.LastRun, s.LastResult, s.LastRunID = now.UTC(), result, runID
	return saveStatus(p, s)
}

// recordFailure notes a failed or refused pass, so `dreamd status` shows it.
func recordFailure(p store.Paths, out Outcome, now time.Time) error {
	return recordRun(p, string(out.Result)+": "+out.Err.Error(), "", now)
}

// KnownStores lists every store that has dreamd state, from the status files in stateDir.
func KnownStores(stateDir string) ([]store.Paths, error) {
	files, err := filepath.Glob(filepath.Join(stateDir, "stores", "*", statusFile))
	if err != nil {
		return nil, err
	}
	var out []store.Paths
	for _, f := range files {
		var s Status
		if err := readJSON(f, &s); err != nil || s.Store == "" {
			continue
		}
		out = append(out, store.Paths{Store: s.Store, State: filepath.Dir(f)})
	}
	return out, nil
}

// RecordRollback notes in a store's status that a rollback was applied.
func RecordRollback(p store.Paths, runID string, now time.Time) error {
	s, err := LoadStatus(p)
	if err != nil {
		return err
	}
	s.LastRun, s.LastResult, s.LastRunID = now, string(RolledBack), runID
	return saveStatus(p, s)
}

// Lost lists the transcripts a store's cursors name whose file is gone though it was not read to
// its end (its cursor stopped short, or the file had grown past it when last seen), and that no
// kept link stands in for: lessons lost because an agent deleted its transcript (Gemini CLI's
// session cleanup) before a pass read it all.
func Lost(t Target, cursors Cursors) []string {
	listed := make(map[string]bool, len(t.Files))
	for _, f := range t.Files {
		listed[f.File.Path] = true
	}
	var lost []string
	for path, c := range cursors {
		if listed[path] || !c.More && c.Offset >= c.Size {
			continue
		}
		if transcript.Gone(path) {
			lost = append(lost, path)
		}
	}
	slices.Sort(lost)
	return lost
}
