// Package corpus writes synthetic Claude Code transcript corpora of realistic shape, and memory
// stores to go with them, for benchmarks and scripts/bench.sh.
//
// The shape follows real ~/.claude/projects data: most bytes are tool results (file reads, test
// logs; a few lines of 100 KB–2 MB), each duplicated in the record's toolUseResult; assistant
// messages are streamed as one record per content block (thinking, text, tool_use), sometimes
// written twice with the same uuid; user turns are short; file-history-snapshot, summary and
// compact_boundary records and sidechain (subagent) records are interleaved. Explicit lessons can
// be planted in user turns and are returned in the Manifest, so a caller can check they reach the
// model. A corpus is the same for the same Options.
package corpus

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/slug"
)

// Options shape a corpus.
type Options struct {
	Projects   int   // projects p1…pN, with cwd /home/bench/p<N>
	Sessions   int   // session files in all, spread round-robin over the projects
	TotalBytes int64 // approximate size of all files together
	Seed       int64
	Lessons    int // explicit user lessons to plant, spread at random over the sessions
}

// Manifest describes a written corpus.
type Manifest struct {
	Source      string   `json:"source"` // <dir>/claude: the path of a `kind: claude` source
	Files       []File   `json:"files"`
	Lessons     []Lesson `json:"lessons"`
	Bytes       int64    `json:"bytes"`
	Lines       int64    `json:"lines"`
	LongestLine int64    `json:"longest_line"`
}

// File is one session transcript of a corpus.
type File struct {
	Path        string `json:"path"`
	Project     string `json:"project"` // the records' cwd
	Session     string `json:"session"`
	Bytes       int64  `json:"bytes"`
	Lines       int64  `json:"lines"`
	LongestLine int64  `json:"longest_line"`
}

// Lesson is an explicit lesson planted in a user turn.
type Lesson struct {
	Path    string `json:"path"`
	Session string `json:"session"`
	Project string `json:"project"`
	Text    string `json:"text"`   // the user turn, exactly as typed
	Marker  string `json:"marker"` // a word only this lesson contains, to find it in a prompt
}

// Home is the parent directory of the synthetic projects.
const Home = "/home/bench"

// ProjectDir is the working directory of project n (1-based).
func ProjectDir(n int) string { return Home + "/p" + strconv.Itoa(n) }

// ProjectSlug is Claude Code's directory name for project n: its path with '/' as '-'.
func ProjectSlug(n int) string { return slug.Project(ProjectDir(n)) }

// firstSession is when the first session of every corpus starts; later ones follow, so
// timestamps increase across a corpus as well as within each file.
var firstSession = time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)

// Generate writes a corpus under dir: <dir>/claude/-home-bench-p<N>/<session uuid>.jsonl. Files are
// written on every core; each session draws from its own generator seeded by Seed and its index,
// so the result does not depend on scheduling.
func Generate(dir string, o Options) (Manifest, error) {
	if o.Projects < 1 || o.Sessions < 1 || o.TotalBytes < 1 || o.Lessons < 0 {
		return Manifest{}, fmt.Errorf("corpus: need projects ≥ 1, sessions ≥ 1, bytes ≥ 1 and lessons ≥ 0; got %+v", o)
	}
	m := Manifest{Source: filepath.Join(dir, "claude")}
	plans := plan(m.Source, o)
	for p := 1; p <= min(o.Projects, o.Sessions); p++ {
		if err := os.MkdirAll(filepath.Join(m.Source, ProjectSlug(p)), 0o755); err != nil {
			return Manifest{}, err
		}
	}
	files, err := writeAll(plans, o.Seed)
	if err != nil {
		return Manifest{}, err
	}
	m.Files = files
	for _, f := range files {
		m.Bytes += f.Bytes
		m.Lines += f.Lines
		m.LongestLine = max(m.LongestLine, f.LongestLine)
	}
	for _, p := range plans {
		for _, l := range p.lessons {
			m.Lessons = append(m.Lessons, l.Lesson)
		}
	}
	return m, nil
}

// sessionPlan is what the master generator decides about one session before any is written.
type sessionPlan struct {
	index   int
	path    string
	project int
	id      string
	start   time.Time
	target  int64 // bytes to write
	lessons []plantedLesson
}

type plantedLesson struct {
	Lesson
	at float64 // where in the session, as a share of its bytes
}

// plan draws every session's project, id, start, size and lessons. Session sizes are skewed like
// real ones: most are small, a few are several times the mean.
func plan(source string, o Options) []sessionPlan {
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x64726561_6d64))
	plans := make([]sessionPlan, o.Sessions)
	weights := make([]float64, o.Sessions)
	var sum float64
	start := firstSession
	for i := range plans {
		project := i%o.Projects + 1
		id := newUUID(rng)
		plans[i] = sessionPlan{
			index:   i,
			path:    filepath.Join(source, ProjectSlug(project), id+".jsonl"),
			project: project,
			id:      id,
			start:   start,
		}
		start = start.Add(time.Duration(2+rng.IntN(10)) * time.Hour)
		weights[i] = 0.15 + rng.ExpFloat64()
		sum += weights[i]
	}
	for i := range plans {
		plans[i].target = max(int64(float64(o.TotalBytes)*weights[i]/sum), 1)
	}
	for k := range o.Lessons {
		p := &plans[rng.IntN(len(plans))]
		text, marker := lessonText(rng, p.project, k)
		p.lessons = append(p.lessons, plantedLesson{
			Lesson: Lesson{Path: p.path, Session: p.id, Project: ProjectDir(p.project), Text: text, Marker: marker},
			at:     rng.Float64(),
		})
	}
	for i := range plans {
		slices.SortStableFunc(plans[i].lessons, func(a, b plantedLesson) int {
			switch {
			case a.at < b.at:
				return -1
			case a.at > b.at:
				return 1
			}
			return 0
		})
	}
	return plans
}

// writeAll writes the planned sessions on every core, returning their files in plan order.
func writeAll(plans []sessionPlan, seed int64) ([]File, error) {
	files := make([]File, len(plans))
	errs := make([]error, len(plans))
	next := make(chan int)
	var wg sync.WaitGroup
	shared := newPool(rand.New(rand.NewPCG(uint64(seed), 0x706f6f6c)))
	for range min(runtime.GOMAXPROCS(0), len(plans)) {
		wg.Go(func() {
			for i := range next {
				files[i], errs[i] = writeSession(plans[i], shared, seed)
			}
		})
	}
	for i := range plans {
		next <- i
	}
	close(next)
	wg.Wait()
	return files, errors.Join(errs...)
}

// writeSession writes one session file.
func writeSession(p sessionPlan, shared *pool, seed int64) (File, error) {
	fh, err := os.Create(p.path)
	if err != nil {
		return File{}, err
	}
	s := newSession(p, shared, fh, rand.New(rand.NewPCG(uint64(seed), uint64(p.index)+1)))
	err = s.write()
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return File{}, fmt.Errorf("corpus: writing %s: %w", p.path, err)
	}
	return File{Path: p.path, Project: ProjectDir(p.project), Session: p.id, Bytes: s.written, Lines: s.lines, LongestLine: s.longest}, nil
}
