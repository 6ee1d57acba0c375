package phases

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/reldate"
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
func Gather(env *Env, storeDir string, pending []PendingFile, budget int) (Gathered, error) {
	m, err := Read(env, storeDir, pending)
	if err != nil {
		return Gathered{}, err
	}
	return m.Digest(env.Redactor, budget), nil
}

// Material is the pending material of one store as read, before it is cut to a budget. It is
// read once per pass however often the digest has to be cut again.
type Material struct {
	files    []digestFile
	bytes    int64
	warnings []string
	redacted sync.Map // turn text → redactedText, so a text is redacted once per pass
}

type redactedText struct {
	text  string
	found int
}

// Read reads the pending material of one store in parallel and makes relative dates absolute.
func Read(env *Env, storeDir string, pending []PendingFile) (*Material, error) {
	readings, err := readAll(env, storeDir, pending)
	if err != nil {
		return nil, err
	}
	m := &Material{files: make([]digestFile, 0, len(readings))}
	for i, r := range readings {
		p := pending[i]
		m.bytes += r.Cursor.Offset - p.From.Offset
		m.warnings = append(m.warnings, r.Warnings...)
		df := digestFile{read: FileRead{Path: p.File.Path, Kind: p.File.Kind, Project: p.Project, Session: p.Session, From: p.From, To: r.Cursor, tail: r.Tail}}
		for _, s := range r.Sessions {
			es := digestSession(p.Tracked, s)
			if len(es.Turns) == 0 {
				continue
			}
			df.sessions = append(df.sessions, es)
			df.read.Sessions = append(df.read.Sessions, SessionRef{Kind: es.Source, ID: es.ID, Project: es.Project, Date: es.Date, Turns: len(es.Turns)})
		}
		m.files = append(m.files, df)
	}
	return m, nil
}

// Digest cuts the material to budget tokens: tool output goes first, then assistant prose, then
// user turns with no lesson in them; when even the lessons do not fit, whole files are deferred
// to the next pass. Secrets are redacted from what is kept, before it goes anywhere. The material
// itself is left as read, so a smaller budget can be tried again.
func (m *Material) Digest(r *redact.Redactor, budget int) Gathered {
	g := Gathered{Bytes: m.bytes, Warnings: slices.Clone(m.warnings)}
	cut, files := fit(m.copyFiles(), budget)
	g.Cut = cut
	g.Read = make([]FileRead, 0, len(files))
	for _, f := range files {
		if f.deferred {
			g.Deferred = append(g.Deferred, f.read)
			continue
		}
		g.Read = append(g.Read, f.read)
		g.Sessions = append(g.Sessions, f.sessions...)
	}
	g.Redactions = m.redactAll(r, g.Sessions)
	slices.SortStableFunc(g.Sessions, func(a, b extract.Session) int { return a.Date.Compare(b.Date) })
	return g
}

// copyFiles copies the files down to their turn lists, which fit cuts in place.
func (m *Material) copyFiles() []digestFile {
	out := slices.Clone(m.files)
	for i := range out {
		out[i].sessions = slices.Clone(out[i].sessions)
		for j := range out[i].sessions {
			out[i].sessions[j].Turns = slices.Clone(out[i].sessions[j].Turns)
		}
	}
	return out
}

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
		m.redacted.Store(s, redactedText{text, len(found)})
		total.Add(int64(len(found)))
		return text
	}
	onEveryCore(len(sessions), func(i int) {
		// The project path travels in the digest too (a checkout path can hold a token).
		sessions[i].Project = clean(sessions[i].Project)
		for j := range sessions[i].Turns {
			sessions[i].Turns[j].Text = clean(sessions[i].Turns[j].Text)
		}
	})
	return int(total.Load())
}

// onEveryCore calls work(i) for every i below n, on as many goroutines as there are cores.
func onEveryCore(n int, work func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				work(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// readAll reads the pending files on every core, keeping results in file order.
func readAll(env *Env, storeDir string, pending []PendingFile) ([]transcript.Reading, error) {
	out := make([]transcript.Reading, len(pending))
	errs := make([]error, len(pending))
	var total int64
	for _, p := range pending {
		total += p.Bytes
	}
	var (
		mu   sync.Mutex
		done int
		read int64
	)
	onEveryCore(len(pending), func(i int) {
		p := pending[i]
		out[i], errs[i] = p.Adapter.Read(p.File, p.From)
		if env.Progress != nil {
			mu.Lock()
			done++
			read += p.Bytes
			env.Progress(Progress{Store: storeDir, Files: len(pending), Done: done, Bytes: total, Read: read})
			mu.Unlock()
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", pending[i].File.Path, err)
		}
	}
	return out, nil
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
	es := extract.Session{ID: s.ID, Source: s.Kind, Project: project, Date: date}
	if es.ID == "" {
		es.ID = t.Session
	}
	for _, turn := range s.Turns {
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
		es.Turns = append(es.Turns, extract.Turn{Role: turn.Role, Text: text})
	}
	return es
}

// digestFile is one file's sessions while the digest is cut to size.
type digestFile struct {
	read     FileRead
	sessions []extract.Session
	deferred bool
}

// lesson spots the user turns that carry something durable; they are cut last.
var lesson = lazyre.New(`(?i)\b(remember|from now on|going forward|always|never|prefer|we use|we decided|decided|migrat|switched|no longer|instead of|lives? in|don'?t ever|make sure|note that|actually|should|must)\b`)

// estimate is a conservative token count (about three bytes a token) used while cutting; the
// consolidator counts the final prompt exactly.
func estimate(s string) int { return len(s)/3 + 4 }

func size(files []digestFile) int {
	n := 0
	for _, f := range files {
		if f.deferred {
			continue
		}
		for _, s := range f.sessions {
			n += 40 // session header
			for _, t := range s.Turns {
				n += estimate(t.Text)
			}
		}
	}
	return n
}

// fit cuts the digest to budget, least valuable material first, and says what it cut.
func fit(files []digestFile, budget int) ([]string, []digestFile) {
	var cut []string
	levels := []struct {
		what string
		drop func(extract.Turn) bool
	}{
		{"tool output", func(t extract.Turn) bool { return t.Role == transcript.Tool }},
		{"assistant turns", func(t extract.Turn) bool { return t.Role == transcript.Assistant }},
		{"user turns with no explicit lesson", func(t extract.Turn) bool {
			return t.Role == transcript.User && !lesson.MatchString(t.Text)
		}},
	}
	total := size(files)
	for _, level := range levels {
		if total <= budget {
			return cut, files
		}
		// The biggest turns of this level go first, and only until the digest fits, so the budget
		// is spent on as many turns as it holds.
		type ref struct{ file, session, turn, cost int }
		var victims []ref
		for i := range files {
			for j, s := range files[i].sessions {
				for k, t := range s.Turns {
					if level.drop(t) {
						victims = append(victims, ref{i, j, k, estimate(t.Text)})
					}
				}
			}
		}
		slices.SortStableFunc(victims, func(a, b ref) int { return cmp.Compare(b.cost, a.cost) })
		gone := map[[3]int]bool{}
		for _, v := range victims {
			if total <= budget {
				break
			}
			gone[[3]int{v.file, v.session, v.turn}] = true
			total -= v.cost
		}
		for i := range files {
			for j := range files[i].sessions {
				s := &files[i].sessions[j]
				k := -1
				s.Turns = slices.DeleteFunc(s.Turns, func(extract.Turn) bool { k++; return gone[[3]int{i, j, k}] })
			}
		}
		if len(gone) > 0 {
			cut = append(cut, fmt.Sprintf("left out %d of %d %s to fit the token budget", len(gone), len(victims), level.what))
		}
	}
	// Still too big: defer whole files, newest first, so the oldest material is consolidated now
	// and the rest next pass (their cursors do not move). One file always goes, so a pass progresses.
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(newest(files[b]).Unix(), newest(files[a]).Unix()) })
	kept := len(files)
	for _, i := range order {
		if size(files) <= budget || kept == 1 {
			break
		}
		files[i].deferred = true
		kept--
		cut = append(cut, fmt.Sprintf("deferred %s to the next pass (over the token budget)", files[i].read.Path))
	}
	if size(files) > budget {
		// A single file over budget: keep its oldest sessions that fit.
		for i := range files {
			if !files[i].deferred {
				files[i].sessions = trimSessions(files[i].sessions, budget, &cut)
			}
		}
	}
	return cut, files
}

// trimSessions keeps the user lessons of a lone oversized file within budget, cutting the newest
// turns; what is cut is said.
func trimSessions(sessions []extract.Session, budget int, cut *[]string) []extract.Session {
	n := 0
	dropped := 0
	for i := range sessions {
		n += 40
		keep := sessions[i].Turns[:0]
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
