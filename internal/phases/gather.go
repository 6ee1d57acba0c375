package phases

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dreamd/dreamd/internal/cores"
	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/reldate"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// Gathered is the new material of one store, digested to fit the budget.
type Gathered struct {
	Sessions   []extract.Session // the digest, oldest first
	Read       []FileRead        // files whose new material goes into this pass
	Deferred   []FileRead        // files left for the next pass (budget); their cursors stay
	Cut        []string          // what was left out of the digest, in words
	Warnings   []string
	Redactions int
	Bytes      int64 // new bytes read
	// Known holds the secret values the digest's redaction found, for the rest of the request
	// (the store's memories) to be swept of them too.
	Known *redact.Known
}

// FileRead is one transcript file's share of a pass.
type FileRead struct {
	Path     string            `json:"path"`
	Kind     string            `json:"kind"`
	Project  string            `json:"project"` // where it was routed
	Session  string            `json:"session"`
	From     transcript.Cursor `json:"from"`
	To       transcript.Cursor `json:"to"`
	Sessions []SessionRef      `json:"sessions"`
	tail     string            // the read's transcript.TailHash at To.Offset, "" if not taken
}

// SessionRef names a session of the digest.
type SessionRef struct {
	Kind    string    `json:"kind"`
	ID      string    `json:"id"`
	Project string    `json:"project"`
	Date    time.Time `json:"date"`
	Turns   int       `json:"turns"`
}

// Pending returns the files of t with material the cursors have not covered, with where each
// read starts. It stats and, for changed files, hashes their heads; it reads nothing else.
func Pending(t Target, cursors Cursors) ([]PendingFile, error) {
	out := make([]PendingFile, 0, len(t.Files)) // a store's first pass reads every file
	for _, f := range t.Files {
		from, n, err := transcript.Resume(f.File, cursors[f.File.Path])
		if gone(err) {
			continue // deleted or replaced since it was listed: nothing pending
		}
		if err != nil {
			return nil, err
		}
		if n > 0 {
			out = append(out, PendingFile{Tracked: f, From: from, Bytes: n})
		}
	}
	return out, nil
}

// PendingFile is a transcript file with unread material.
type PendingFile struct {
	Tracked
	From  transcript.Cursor
	Bytes int64
}

// Gather reads the pending material of one store and digests it within budget tokens (see Read
// and Material.Digest).
func Gather(ctx context.Context, env *Env, storeDir string, pending []PendingFile, budget int) (Gathered, error) {
	m, err := Read(ctx, env, storeDir, pending, budget)
	if err != nil {
		return Gathered{}, err
	}
	return m.Digest(env.Redactor, budget), nil
}

// Material is the pending material of one store as read, before it is cut to a budget. Digest
// leaves it as read, so it can be cut to more than one budget; a pass drops it once digested (the
// digest keeps what it needs) and reads it again for a harder cut (gatherAndConsolidate).
type Material struct {
	// batches are the files read, in reading order, as readFiles returned them: kept as batches
	// (copyFiles joins them), not appended to one list regrown for every batch.
	batches [][]digestFile
	// unread are the pending files left for the next pass without reading them: pointers into
	// the caller's list, made FileReads only by Digest (a first pass can leave 100,000).
	unread   []*PendingFile
	why      string // why they were left
	bytes    int64
	warnings []string
	redacted sync.Map // turn text → redactedText, so a text is redacted once however often it is digested
	// known is allocated apart from the material: the digest keeps it through the call, and a
	// pointer into the material would keep the whole of it alive.
	known *redact.Known
}

type redactedText struct {
	text  string
	found int
}

// readBatch is how many files Read reads between two looks at what it has: enough to keep every
// core busy, few enough that it stops soon after the budget is full.
const readBatch = 32

// Read reads the pending material of one store, oldest file first (by modification time), on
// every core, and makes relative dates absolute. It reads only what a pass can use: at most
// env.MaxSessionsPerPass files (gather.max_sessions_per_pass, 0: no cap), and no more once the
// files read fill budget even at their floors (what the cut keeps of a file, at least). The rest
// is left unread for the next pass, its cursors where they are: a first pass over months of
// history costs what it consolidates, not what is on disk. It stops when ctx is done.
func Read(ctx context.Context, env *Env, storeDir string, pending []PendingFile, budget int) (*Material, error) {
	order := oldestFirst(pending)
	m := &Material{}
	if n := env.MaxSessionsPerPass; n > 0 && len(order) > n {
		m.leave(order[n:], fmt.Sprintf("gather.max_sessions_per_pass is %d", n))
		order = order[:n]
	}
	var total int64
	for _, p := range order {
		total += p.Bytes
	}
	prog := Progress{Store: storeDir, Files: len(order), Bytes: total, Left: len(m.unread)}
	filled := 0
	for start := 0; start < len(order); start += readBatch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if filled > budget {
			m.leave(order[start:], "the oldest filled the token budget")
			prog.Files, prog.Bytes, prog.Left = prog.Done, prog.Read, len(m.unread)
			env.progress(prog)
			break
		}
		batch := deref(order[start:min(start+readBatch, len(order))])
		files, floors, err := readFiles(batch, budget)
		if err != nil {
			return nil, err
		}
		kept := files[:0]
		for i, f := range files {
			if f.gone {
				m.warnings = append(m.warnings, f.warnings...)
				prog.Done++
				continue
			}
			m.bytes += f.read.To.Offset - f.read.From.Offset
			m.warnings = append(m.warnings, f.warnings...)
			f.warnings = nil
			kept = append(kept, f)
			filled += floors[i]
			prog.Done++
			prog.Read += batch[i].Bytes
		}
		m.batches = append(m.batches, kept)
		env.progress(prog)
	}
	return m, nil
}

// oldestFirst orders pending files by modification time, then path. It orders pointers: a first
// pass can have 100,000 files, and a copy of them is tens of megabytes at its peak.
func oldestFirst(pending []PendingFile) []*PendingFile {
	order := make([]*PendingFile, len(pending))
	for i := range pending {
		order[i] = &pending[i]
	}
	slices.SortStableFunc(order, func(a, b *PendingFile) int {
		return cmp.Or(a.File.ModTime.Compare(b.File.ModTime), cmp.Compare(a.File.Path, b.File.Path))
	})
	return order
}

// deref copies a batch of pending files.
func deref(files []*PendingFile) []PendingFile {
	out := make([]PendingFile, len(files))
	for i, p := range files {
		out[i] = *p
	}
	return out
}

// leave records pending files left unread for the next pass, and why.
func (m *Material) leave(files []*PendingFile, why string) {
	m.unread = append(m.unread, files...)
	m.why = cmp.Or(m.why, why)
}

// readFiles reads files on every core into digest files, in order, with each one's floor.
func readFiles(files []PendingFile, budget int) ([]digestFile, []int, error) {
	out := make([]digestFile, len(files))
	floors := make([]int, len(files))
	errs := make([]error, len(files))
	cores.Each(len(files), func(i int) {
		out[i], errs[i] = readFile(files[i])
		if gone(errs[i]) {
			// Deleted since it was listed (an agent cleaning up its sessions), or replaced by what
			// is no regular file: nothing to read, which must not fail the store; its cursor stays.
			out[i], errs[i] = digestFile{gone: true, warnings: []string{files[i].File.Path + ": deleted or replaced during the pass, skipped"}}, nil
			return
		}
		floors[i], _ = floor(out[i], budget)
	})
	for i, err := range errs {
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", files[i].File.Path, err)
		}
	}
	return out, floors, nil
}

// gone reports an error of a transcript deleted since it was listed, or replaced by something
// that is not a regular file (a FIFO, a device), which dreamd never reads.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, safefile.ErrNotRegular)
}

// readFile reads one pending file's new material into a digest file.
func readFile(p PendingFile) (digestFile, error) {
	r, err := p.Adapter.Read(p.File, p.From)
	if err != nil {
		return digestFile{}, err
	}
	df := digestFile{read: FileRead{Path: p.File.Path, Kind: p.File.Kind, Project: p.Project, Session: p.Session, From: p.From, To: r.Cursor, tail: r.Tail}, warnings: r.Warnings}
	for _, s := range r.Sessions {
		es := digestSession(p.Tracked, s)
		if len(es.Turns) == 0 {
			continue
		}
		df.sessions = append(df.sessions, es)
		df.read.Sessions = append(df.read.Sessions, SessionRef{Kind: es.Source, ID: es.ID, Project: es.Project, Date: es.Date, Turns: len(es.Turns)})
	}
	return df, nil
}

// Digest cuts the material to budget tokens: tool output goes first, then assistant prose, then
// user turns with no lesson in them; when even the lessons do not fit, whole files are deferred
// to the next pass. Secrets are redacted from what is kept, before it goes anywhere. The material
// itself is left as read, so a smaller budget can be tried again.
func (m *Material) Digest(r *redact.Redactor, budget int) Gathered {
	g := Gathered{Bytes: m.bytes, Warnings: slices.Clone(m.warnings)}
	cut, files := fit(m.copyFiles(), budget)
	if len(m.unread) > 0 {
		cut = append(cut, fmt.Sprintf("left %d transcript files unread for the next pass (%s)", len(m.unread), m.why))
	}
	g.Cut = cut
	deferred := 0
	for _, f := range files {
		if f.deferred {
			deferred++
		}
	}
	g.Read = make([]FileRead, 0, len(files)-deferred)
	g.Deferred = make([]FileRead, 0, len(m.unread)+deferred)
	for _, p := range m.unread {
		g.Deferred = append(g.Deferred, FileRead{Path: p.File.Path, Kind: p.File.Kind, Project: p.Project, Session: p.Session, From: p.From, To: p.From})
	}
	for _, f := range files {
		if f.deferred {
			g.Deferred = append(g.Deferred, f.read)
			continue
		}
		g.Read = append(g.Read, f.read)
		for _, s := range f.sessions {
			s.Turns = slices.Clone(s.Turns) // redaction writes into the digest, never the material
			g.Sessions = append(g.Sessions, s)
		}
	}
	if m.known == nil {
		m.known = new(redact.Known)
	}
	g.Redactions = m.redactAll(r, g.Sessions)
	g.Known = m.known
	slices.SortStableFunc(g.Sessions, func(a, b extract.Session) int { return a.Date.Compare(b.Date) })
	return g
}

// copyFiles copies the list of files; fit gives what it cuts lists of its own.
func (m *Material) copyFiles() []digestFile { return slices.Concat(m.batches...) }

// redactAll replaces every secret in the digest, on every core, and counts them.
func (m *Material) redactAll(r *redact.Redactor, sessions []extract.Session) int {
	if r == nil {
		return 0
	}
	var total atomic.Int64
	clean := func(s string) string {
		if v, ok := m.redacted.Load(s); ok {
			total.Add(int64(v.(redactedText).found))
			return v.(redactedText).text
		}
		text, found := r.Redact(s)
		m.known.Remember(s, found)
		m.redacted.Store(s, redactedText{text, len(found)})
		total.Add(int64(len(found)))
		return text
	}
	cores.Each(len(sessions), func(i int) {
		// The project path travels in the digest too (a checkout path can hold a token).
		sessions[i].Project = clean(sessions[i].Project)
		for j := range sessions[i].Turns {
			t := &sessions[i].Turns[j]
			t.Text = clean(t.Text)
			if t.Dir != "" {
				t.Dir = clean(t.Dir)
			}
		}
	})
	// Once a value is a secret, every occurrence of it goes: a password a rule saw in one turn
	// (a pasted .env) is swept from every other turn, earlier ones included.
	sweep := func(s string) string {
		out, n := m.known.Sweep(s)
		total.Add(int64(n))
		return out
	}
	cores.Each(len(sessions), func(i int) {
		sessions[i].Project = sweep(sessions[i].Project)
		for j := range sessions[i].Turns {
			t := &sessions[i].Turns[j]
			t.Text = sweep(t.Text)
			if t.Dir != "" {
				t.Dir = sweep(t.Dir)
			}
		}
	})
	return int(total.Load())
}

// digestSession turns a transcript session into a digest entry, relative dates made absolute from
// each turn's own time.
func digestSession(t Tracked, s transcript.Session) extract.Session {
	project := t.Project
	if s.Project != "" {
		project = transcript.CanonicalProject(s.Project)
	}
	date := s.Ended
	if date.IsZero() {
		date = t.File.ModTime
	}
	es := extract.Session{ID: s.ID, Source: s.Kind, Project: project, Date: date, Origin: s.Origin}
	if es.ID == "" {
		es.ID = t.Session
	}
	if len(s.Turns) > 0 {
		es.Turns = make([]extract.Turn, 0, len(s.Turns)) // at its size: grown by appends it was a tenth of a backlog's garbage
	}
	for k, turn := range s.Turns {
		text := turn.Text
		when := turn.Time
		if when.IsZero() {
			when = date
		}
		if turn.Role != transcript.Tool {
			text = reldate.Rewrite(text, when)
		}
		if text == "" {
			continue
		}
		es.Turns = append(es.Turns, extract.Turn{Role: turn.Role, Text: text, IsError: turn.IsError, Index: k, Time: when, Dir: callDir(turn.Dir, s.Project), Call: turn.Call})
	}
	return es
}

// callDir is the directory a shell call ran in, made absolute against cwd, its session's project,
// when the agent gave it relative (Gemini CLI's dir_path, a Codex workdir); kept relative when the
// project is not known. The adapters learn the project as its git root: a relative directory of an
// agent started in a folder below it is taken from the root.
func callDir(dir, cwd string) string {
	if dir == "" || filepath.IsAbs(dir) || !filepath.IsAbs(cwd) {
		return dir
	}
	return filepath.Join(cwd, dir)
}

// digestFile is one file's sessions while the digest is cut to size.
type digestFile struct {
	read     FileRead
	sessions []extract.Session
	warnings []string // the reader's, until Read collects them
	deferred bool
	whole    bool // kept with all its user turns (it holds no lesson): fit cuts none of them
	gone     bool // deleted since it was listed: nothing read, only its warning kept
}

// lesson spots the user turns that carry something durable; they are cut last. (A variable so a
// test can count how much text the cut scans.)
var lesson = func(text string) bool { return lessonWords.in(text) }

// lessonWords are the words and phrases of a lesson ("remember", "from now on", "we decided"…),
// matched as whole words, ASCII case folded; "migrat" is a stem (migrate, migrated, migration).
var lessonWords = newWordSet([]string{"remember", "from now on", "going forward", "always", "never", "prefer",
	"we use", "we decided", "decided", "migrat*", "switched", "no longer", "instead of", "live in", "lives in",
	"don't ever", "don’t ever", "dont ever", "make sure", "note that", "actually", "should", "must"})

// estimate is a conservative token count (about three bytes a token) used while cutting; the
// consolidator counts the final prompt exactly.
func estimate(s string) int { return len(s)/3 + 4 }

// sessionCost is what a session's header costs in the digest, turns aside.
const sessionCost = 40

func size(files []digestFile) int {
	n := 0
	for _, f := range files {
		if !f.deferred {
			n += fileSize(f)
		}
	}
	return n
}

func fileSize(f digestFile) int {
	n := 0
	for _, s := range f.sessions {
		n += sessionCost
		for _, t := range s.Turns {
			n += estimate(t.Text)
		}
	}
	return n
}

// floor is the least of a file the cut keeps while it keeps the file at all: its session headers
// and its user turns with a lesson, or, in a file without a lesson, all its user turns (whole: a
// session is never sent empty, its words lost). It stops counting past limit.
func floor(f digestFile, limit int) (n int, whole bool) {
	n = len(f.sessions) * sessionCost
	users := n
	whole = true
	for _, s := range f.sessions {
		for _, t := range s.Turns {
			if n > limit {
				return n, whole
			}
			if t.Role != transcript.User {
				continue
			}
			users += estimate(t.Text)
			if lesson(t.Text) {
				n += estimate(t.Text)
				whole = false
			}
		}
	}
	if whole {
		n = users
	}
	return n, whole
}

// fit cuts the digest to budget and says what it cut. Least valuable material goes first: tool
// output, then assistant prose, then user turns with no lesson in them (in the files that hold a
// lesson); what does not fit even so waits for the next pass in whole files (their cursors do not
// move), newest first.
//
// It decides what to defer first, from each file's floor (what the cut would keep of it), oldest
// file first and only until the budget is spent: the lesson scan reads the files that are kept,
// never the whole backlog; the kept files then get whatever room their floors leave, cut by the
// levels above. fit does not change the turn lists it was given.
func fit(files []digestFile, budget int) ([]string, []digestFile) {
	if size(files) <= budget {
		return nil, files
	}
	var cut []string
	if deferred := deferNewest(files, budget); len(deferred) > 0 {
		cut = append(cut, deferredNote(deferred))
	}
	kept := make([]*digestFile, 0, len(files))
	for i := range files {
		if !files[i].deferred {
			kept = append(kept, &files[i])
		}
	}
	cut = append(cut, cutTurns(kept, budget)...)
	if len(kept) == 1 && fileSize(*kept[0]) > budget {
		// A single file over budget even at its floor: keep its oldest turns that fit.
		kept[0].sessions = trimSessions(kept[0].sessions, budget, &cut)
	}
	return cut, files
}

// deferNewest keeps files oldest first while their floors fit budget and defers the others (a file
// whose floor does not fit the room left, and every file once no file could fit it); the oldest
// file always stays, so a pass progresses. It returns the deferred files' paths.
func deferNewest(files []digestFile, budget int) []string {
	order := make([]int, len(files))
	newestOf := make([]int64, len(files))
	for i := range order {
		order[i] = i
		newestOf[i] = newest(files[i]).UnixNano()
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(newestOf[a], newestOf[b]) })
	room, kept := budget, 0
	var paths []string
	for n, i := range order {
		if kept > 0 && room < sessionCost+estimate("") {
			for _, i := range order[n:] {
				files[i].deferred = true
				paths = append(paths, files[i].read.Path)
			}
			break
		}
		f, whole := floor(files[i], max(room, 0))
		if kept > 0 && f > room {
			files[i].deferred = true
			paths = append(paths, files[i].read.Path)
			continue
		}
		files[i].whole = whole
		room -= f
		kept++
	}
	return paths
}

// deferredNote says which files were deferred: each by name when there are a few.
func deferredNote(paths []string) string {
	if len(paths) <= 3 {
		return fmt.Sprintf("deferred %s to the next pass (over the token budget)", strings.Join(paths, ", "))
	}
	return fmt.Sprintf("deferred %d transcript files to the next pass (over the token budget; the oldest go first)", len(paths))
}

// turnRef is one turn of a kept file while the levels cut: where it is and what it costs.
type turnRef struct {
	file, session, turn int32 // int32: a backlog's cut holds one for each of its turns
	cost                int32
	gone                bool
}

// cutTurns cuts the turns of the kept files, level by level and biggest turn first within a level,
// only until they fit budget, so the budget is spent on as many turns as it holds. It gives every
// cut session a turn list of its own.
func cutTurns(kept []*digestFile, budget int) []string {
	turns := 0
	for _, f := range kept {
		for _, s := range f.sessions {
			turns += len(s.Turns)
		}
	}
	refs := make([]turnRef, 0, turns) // at its size: grown by appends it was most of the cut's garbage
	total := 0
	for i, f := range kept {
		for j, s := range f.sessions {
			total += sessionCost
			for k, t := range s.Turns {
				c := estimate(t.Text)
				total += c
				refs = append(refs, turnRef{file: int32(i), session: int32(j), turn: int32(k), cost: int32(c)})
			}
		}
	}
	levels := []struct {
		what string
		drop func(*digestFile, extract.Turn) bool
	}{
		{"tool output", func(_ *digestFile, t extract.Turn) bool { return t.Role == transcript.Tool }},
		{"assistant turns", func(_ *digestFile, t extract.Turn) bool { return t.Role == transcript.Assistant }},
		{"user turns with no explicit lesson", func(f *digestFile, t extract.Turn) bool {
			return t.Role == transcript.User && !f.whole && !lesson(t.Text)
		}},
	}
	var cut []string
	dropped := false
	var victims []int // reused by every level
	for _, level := range levels {
		if total <= budget {
			break
		}
		victims = victims[:0]
		for n, r := range refs {
			if f := kept[r.file]; level.drop(f, f.sessions[r.session].Turns[r.turn]) {
				victims = append(victims, n)
			}
		}
		slices.SortStableFunc(victims, func(a, b int) int { return cmp.Compare(refs[b].cost, refs[a].cost) })
		gone := 0
		for _, n := range victims {
			if total <= budget {
				break
			}
			refs[n].gone = true
			total -= int(refs[n].cost)
			gone++
		}
		if gone > 0 {
			dropped = true
			cut = append(cut, fmt.Sprintf("left out %d of %d %s to fit the token budget", gone, len(victims), level.what))
		}
	}
	if dropped {
		keepTurns(kept, refs)
	}
	return cut
}

// keepTurns gives the kept files new session and turn lists holding the turns refs did not cut
// (refs are in file, session, turn order); the lists read are left as they were.
func keepTurns(kept []*digestFile, refs []turnRef) {
	n := 0
	for _, f := range kept {
		sessions := slices.Clone(f.sessions)
		for j, s := range f.sessions {
			turns := s.Turns[:0:0]
			for _, t := range s.Turns {
				if !refs[n].gone {
					turns = append(turns, t)
				}
				n++
			}
			sessions[j].Turns = turns
		}
		f.sessions = sessions
	}
}

// trimSessions keeps the user lessons of a lone oversized file within budget, cutting the newest
// turns; what is cut is said.
func trimSessions(sessions []extract.Session, budget int, cut *[]string) []extract.Session {
	sessions = slices.Clone(sessions)
	n := 0
	dropped := 0
	for i := range sessions {
		n += sessionCost
		var keep []extract.Turn // a list of its own: the one read stays as it was
		for _, t := range sessions[i].Turns {
			if n+estimate(t.Text) > budget {
				dropped++
				continue
			}
			n += estimate(t.Text)
			keep = append(keep, t)
		}
		sessions[i].Turns = keep
	}
	if dropped > 0 {
		*cut = append(*cut, fmt.Sprintf("left out %d turns of one oversized transcript (budget %d tokens)", dropped, budget))
	}
	return slices.DeleteFunc(sessions, func(s extract.Session) bool { return len(s.Turns) == 0 })
}

func newest(f digestFile) time.Time {
	var t time.Time
	for _, s := range f.sessions {
		if s.Date.After(t) {
			t = s.Date
		}
	}
	return t
}

// digestBudget is the share of the prompt the digest may take: what remains after the fixed cost
// of a call (system prompt, schema, chat overhead) and every memory's name and description, less
// room for the most relevant bodies.
func digestBudget(env *Env, s *store.Store) int {
	listing, bodies := 0, 0
	for _, m := range s.Memories {
		listing += estimate(m.Name+m.Description) + 8
		bodies += estimate(m.Body)
	}
	// A store too large to list in full gives up the rest of its listing (the prompt lists the
	// least relevant memories by name only, or not at all), never the new sessions' room.
	reserve := extract.FixedCost() + 1000 + min(listing, env.MaxInputTokens/2)
	left := env.MaxInputTokens - reserve
	return max(left-min(bodies, left*3/10), 500)
}
