package phases

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/google/renameio/v2"
)

// A pass that finds nothing to do is what the daemon runs most. After one, the quiet mark records
// a digest of every listed transcript (path, size, modification time) and of every store's state
// files (name, size, modification time). The next pass lists the sources as always; when both
// digests are unchanged, no transcript moved and no store's cursors did, so it ends there without
// reading any cursors. Anything that writes state (an apply, a rollback, a recovery) changes the
// state digest; a transcript appended in place changes the files digest.

// quietMark is the record of a pass that found nothing to do anywhere.
type quietMark struct {
	Files  string   `json:"files"`
	State  string   `json:"state"`
	Stores []string `json:"stores"` // every store the pass looked at, in order
	// Projects are those whose SpecStory folders the pass looked in (Env.SpecStory): the next
	// pass looks in them again before it trusts the mark.
	Projects []string `json:"projects,omitempty"`
}

func quietPath(env *Env) string { return filepath.Join(env.StateDir, "quiet.json") }

func readQuiet(env *Env) *quietMark {
	var m quietMark
	if err := readJSON(quietPath(env), &m); err != nil || m.Files == "" {
		return nil // none, or unreadable: a full pass
	}
	return &m
}

// markQuiet records the quiet mark after a pass whose every store had nothing to do, and drops it
// after any other pass. A failure to write it only costs the next pass its shortcut.
// files is filesDigest of the pass's listing, projects its exportProjects.
func markQuiet(env *Env, files string, projects []string, outcomes []Outcome) {
	stores := make([]string, 0, len(outcomes))
	for _, o := range outcomes {
		if o.Result != NothingNew || o.Err != nil {
			_ = os.Remove(quietPath(env))
			return
		}
		stores = append(stores, o.Store)
	}
	data, _ := json.Marshal(quietMark{Files: files, State: stateDigest(env, stores), Stores: stores, Projects: projects})
	if os.MkdirAll(env.StateDir, 0o700) == nil {
		_ = renameio.WriteFile(quietPath(env), append(data, '\n'), 0o600)
	}
}

// quietOutcomes are the outcomes of the pass the mark recorded, when nothing changed since.
func quietOutcomes(env *Env, m *quietMark, listed []listedSource) ([]Outcome, bool) {
	if m.Files != filesDigest(env, listed) || m.State != stateDigest(env, m.Stores) {
		return nil, false
	}
	out := make([]Outcome, len(m.Stores))
	for i, s := range m.Stores {
		out[i] = Outcome{Store: s, Result: NothingNew}
	}
	return out, true
}

// filesDigest digests the configuration that routes transcripts and every listed file.
func filesDigest(env *Env, listed []listedSource) string {
	h := sha256.New()
	line := func(fields ...string) {
		for _, f := range fields {
			h.Write([]byte(f))
			h.Write([]byte{0})
		}
		h.Write([]byte{'\n'})
	}
	line(string(env.StoreMode), env.StoreRoot, env.StorePath, env.UserStore, env.TeamStore)
	for _, s := range env.Sources {
		line(s.Kind, s.Path, s.Project, s.Store)
	}
	var buf []byte
	for _, l := range listed {
		if l.project != "" {
			line("specstory", l.project)
		}
		for _, f := range l.files {
			buf = append(buf[:0], f.Path...)
			buf = append(buf, 0)
			buf = strconv.AppendInt(buf, f.Size, 10)
			buf = append(buf, 0)
			buf = strconv.AppendInt(buf, f.ModTime.UnixNano(), 10)
			buf = append(buf, '\n')
			h.Write(buf)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// stateDigest digests the entries of each store's state directory: cursors, status, an open run,
// the pending plans' folder.
func stateDigest(env *Env, stores []string) string {
	h := sha256.New()
	for _, s := range slices.Sorted(slices.Values(stores)) {
		digestDir(h, StorePaths(env, s).State)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func digestDir(h hash.Hash, dir string) {
	h.Write([]byte(dir + "\n"))
	entries, err := os.ReadDir(dir)
	if err != nil {
		h.Write([]byte("unreadable: " + err.Error() + "\n"))
		return
	}
	var buf []byte
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue // removed while listing: the names written so far still differ
		}
		buf = append(buf[:0], e.Name()...)
		buf = append(buf, 0)
		buf = strconv.AppendInt(buf, info.Size(), 10)
		buf = append(buf, 0)
		buf = strconv.AppendInt(buf, info.ModTime().UnixNano(), 10)
		buf = append(buf, '\n')
		h.Write(buf)
	}
}

// appliedAll reports a pass that applied something and left every other store with nothing to do.
func appliedAll(outcomes []Outcome) bool {
	applied := false
	for _, o := range outcomes {
		switch {
		case o.Err != nil:
			return false
		case o.Result == Applied:
			applied = true
		case o.Result != NothingNew:
			return false
		}
	}
	return applied
}

// recheck is the quick check of every store after a pass: the listing, and each store's outcome
// had nothing been done.
func recheck(env *Env) (string, []string, []Outcome) {
	targets, _, listed, err := discover(context.Background(), env)
	if err != nil {
		return "", nil, []Outcome{{Err: err}}
	}
	out := make([]Outcome, len(targets))
	for i, t := range targets {
		o, done := quickCheck(env, t, Options{})
		if !done {
			o.Result = Planned // material waits: no quiet mark
		}
		out[i] = o
	}
	return filesDigest(env, listed), exportProjects(listed), out
}
