package store

import (
	"bytes"
	"compress/gzip"
	"encoding/json"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	sjson "github.com/segmentio/encoding/json"
)

// Names in the state directory (the layout is described at the top of txn.go).
const (
	runsDir      = "runs"
	archiveDir   = "archive"
	conflictsDir = "conflicts"
	// openFile names the run under way while one is; a quiet pass checks this one file instead of
	// every run's status.
	openFile   = "open"
	imagesFile = "images.json.gz" // gzip: a run's images are mostly two near-equal MEMORY.md versions
	// legacyImages is the uncompressed journal of earlier versions, still read.
	legacyImages = "images.json"
	runFile      = "run.json"
	statusFile   = "status"
)

// Run statuses; a run directory without a status holds an incomplete journal.
const (
	statusApplying  = "applying"
	statusAborting  = "aborting"
	statusCommitted = "committed"
)

// runInfo is a run's summary.
type runInfo struct {
	RunID   string          `json:"run_id"`
	Kind    RunKind         `json:"kind"`
	Seq     int             `json:"seq"` // order of the runs of this store
	Time    time.Time       `json:"time"`
	Files   []string        `json:"files"`
	Retired []string        `json:"retired,omitempty"`
	Undoes  []string        `json:"undoes,omitempty"` // rollback: the runs it undid
	Meta    json.RawMessage `json:"meta,omitempty"`
}

// image is one file before and after a run; nil is an absent file.
type image struct {
	Name string
	Old  []byte
	New  []byte
}

// imageJSON is how an image is journaled: text as it is (most images: gzip then finds what the
// old and new versions share), anything else in base64, an absent file as neither.
type imageJSON struct {
	Name    string  `json:"name"`
	OldText *string `json:"old_text,omitempty"`
	NewText *string `json:"new_text,omitempty"`
	Old     []byte  `json:"old,omitempty"` // also how journals of earlier versions held text
	New     []byte  `json:"new,omitempty"`
}

func (im image) MarshalJSON() ([]byte, error) {
	j := imageJSON{Name: im.Name}
	j.OldText, j.Old = encodeImage(im.Old)
	j.NewText, j.New = encodeImage(im.New)
	return json.Marshal(j)
}

func (im *image) UnmarshalJSON(data []byte) error {
	var j imageJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	im.Name, im.Old, im.New = j.Name, decodeImage(j.OldText, j.Old), decodeImage(j.NewText, j.New)
	return nil
}

func encodeImage(b []byte) (*string, []byte) {
	switch {
	case b == nil:
		return nil, nil
	case utf8.Valid(b):
		s := string(b)
		return &s, nil
	}
	return nil, b
}

func decodeImage(text *string, raw []byte) []byte {
	if text != nil {
		return []byte(*text)
	}
	return raw // nil when absent; base64 of an empty file decodes to a non-nil empty slice
}

// images is the journal proper: everything needed to finish or undo the run.
type images struct {
	Store   []image      `json:"store"`
	State   []image      `json:"state"`
	Retired []Retirement `json:"retired"`
}

type journal struct {
	info runInfo
	img  images
}

// archiveMeta is the <name>.json next to an archived memory.
type archiveMeta struct {
	RunID    string       `json:"run_id"`
	Name     string       `json:"name"`
	Reason   RetireReason `json:"reason"`
	Detail   string       `json:"detail"`
	Evidence []string     `json:"evidence,omitempty"`
	Time     time.Time    `json:"time"`
}

// crashHook, set only by tests, is called before every step of a transaction. When it returns
// errCrash the transaction stops on the spot, as a killed process would; any other error fails the
// step like an I/O error.
var crashHook func(step string) error

// errCrash is the error by which crashHook simulates a killed process.
var errCrash = errors.New("simulated crash")

func step(name string) error {
	if crashHook == nil {
		return nil
	}
	return crashHook(name)
}

func runPath(p Paths, id string) string { return filepath.Join(p.State, runsDir, id) }

// run is a run directory as found.
type run struct {
	id     string
	status string
	info   runInfo // zero for an incomplete journal
}

// listRuns reads the summary and status of every run, oldest first. A committed run never
// changes, so the summaries of committed runs are kept in one index file beside them: a listing
// reads the directory, the index and only the runs the index does not hold yet — not two files
// per run of a long history. The run directories stay the truth: an index entry without its
// directory (a pruned run) is passed over, and a run the index lacks is read from its files.
// Only the writers of runs update the index (refreshRunIndex), so a dry run writes nothing.
func listRuns(p Paths) ([]run, error) {
	entries, err := os.ReadDir(filepath.Join(p.State, runsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cached := readRunIndex(p)
	var runs []run
	for _, e := range entries {
		if !e.IsDir() || !plainName(e.Name()) {
			continue
		}
		if info, ok := cached[e.Name()]; ok {
			runs = append(runs, run{id: e.Name(), status: statusCommitted, info: info})
			continue
		}
		r, err := readRun(p, e.Name())
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b run) int {
		if a.info.Seq != b.info.Seq {
			return a.info.Seq - b.info.Seq
		}
		return strings.Compare(a.id, b.id)
	})
	return runs, nil
}

// readRun reads one run's status and, once it has one, its summary.
func readRun(p Paths, id string) (run, error) {
	r := run{id: id}
	status, err := readOptional(filepath.Join(runPath(p, id), statusFile))
	if err != nil {
		return r, err
	}
	r.status = strings.TrimSpace(string(status))
	if r.status != "" {
		if err := readJSON(filepath.Join(runPath(p, id), runFile), &r.info); err != nil {
			return r, fmt.Errorf("run %s: %w", id, err)
		}
	}
	return r, nil
}

// runIndexFile holds the summaries of committed runs (listRuns).
const runIndexFile = "index.json"

func readRunIndex(p Paths) map[string]runInfo {
	var infos []runInfo
	if err := readJSON(filepath.Join(p.State, runsDir, runIndexFile), &infos); err != nil {
		return nil // none yet, or unreadable: rebuilt from the runs
	}
	out := make(map[string]runInfo, len(infos))
	for _, info := range infos {
		out[info.RunID] = info
	}
	return out
}

// refreshRunIndex records the summaries of the committed runs after a run was committed or
// pruned; a failure only costs later listings the slow way.
func refreshRunIndex(p Paths) {
	runs, err := listRuns(p)
	if err != nil {
		return
	}
	infos := make([]runInfo, 0, len(runs))
	for _, r := range runs {
		if r.status == statusCommitted && r.info.RunID == r.id {
			infos = append(infos, r.info)
		}
	}
	// A cache: when it cannot be written, listRuns reads every run's summary instead.
	_ = writeJSON(filepath.Join(p.State, runsDir, runIndexFile), infos)
}

// writeJournal writes the run's images and summary and makes them durable.
func writeJournal(p Paths, j *journal) error {
	dir := runPath(p, j.info.RunID)
	if err := step("journal"); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := writeGzipJSON(filepath.Join(dir, imagesFile), j.img); err != nil {
		return err
	}
	if err := step("journal:summary"); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(dir, runFile), j.info); err != nil {
		return err
	}
	return errors.Join(syncDir(dir), syncDir(filepath.Dir(dir)))
}

func readJournal(p Paths, r run) (*journal, error) {
	j := &journal{info: r.info}
	dir := runPath(p, r.id)
	err := readGzipJSON(filepath.Join(dir, imagesFile), &j.img)
	if errors.Is(err, fs.ErrNotExist) {
		err = readJSON(filepath.Join(dir, legacyImages), &j.img)
	}
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", r.id, err)
	}
	return j, nil
}

// markOpen records, before its journal is written, that a run is under way.
func markOpen(p Paths, id string) error {
	if err := step("open"); err != nil {
		return err
	}
	if err := os.MkdirAll(p.State, 0o700); err != nil {
		return err
	}
	if err := putFile(filepath.Join(p.State, openFile), []byte(id+"\n"), 0o600); err != nil {
		return err
	}
	return syncDir(p.State)
}

// markSettled records that no run is under way any more.
func markSettled(p Paths) error {
	if err := step("settled"); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(p.State, openFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(p.State)
}

// markStatus records a run's new status durably.
func markStatus(p Paths, id, status string) error {
	if err := step("status:" + status); err != nil {
		return err
	}
	dir := runPath(p, id)
	if err := putFile(filepath.Join(dir, statusFile), []byte(status+"\n"), 0o600); err != nil {
		return err
	}
	return syncDir(dir)
}

// discard removes an undone or never started run: its archive first, its journal last, so an
// interruption leaves a run that Recover discards again.
func discard(p Paths, id string) error {
	if err := step("discard"); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(p.State, archiveDir, id)); err != nil {
		return err
	}
	if err := os.RemoveAll(runPath(p, id)); err != nil {
		return err
	}
	return syncDir(filepath.Join(p.State, runsDir))
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return putFile(path, append(data, '\n'), 0o600)
}

// writeGzipJSON writes v as gzip'd JSON, durably.
func writeGzipJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return putFile(path, b.Bytes(), 0o600)
}

func readGzipJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return json.NewDecoder(zr).Decode(v)
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return sjson.Unmarshal(data, v) // the run index of a long history is most of `dreamd history`
}
