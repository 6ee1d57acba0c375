package corpus

import (
	"io"
	"math/rand/v2"
	"time"
)

// flushAt is how many bytes of finished records a session holds before writing them out.
const flushAt = 1 << 20

// session writes one transcript: a sequence of exchanges (a user turn, the agent's tool steps, its
// answer) until the planned size is reached and every planted lesson is written.
type session struct {
	plan    sessionPlan
	rng     *rand.Rand
	pool    *pool
	w       io.Writer
	out     []byte // finished records not yet written to w
	err     error
	now     time.Time
	main    chain
	version string
	branch  string
	model   string

	written, lines, longest int64
	lessons                 []plantedLesson // not yet written, in order
	sinceCompact, compactAt int64
	tools                   int

	text, raw []byte // scratch: a tool result as the model saw it, and as the tool returned it
}

// chain is one thread of records linked by parentUuid: the conversation, or a subagent's sidechain.
type chain struct {
	parent string // uuid of the newest record; "" before the first
	side   bool
}

func newSession(p sessionPlan, shared *pool, w io.Writer, rng *rand.Rand) *session {
	return &session{
		plan:      p,
		rng:       rng,
		pool:      shared,
		w:         w,
		out:       make([]byte, 0, flushAt+flushAt/4),
		now:       p.start,
		version:   pick(rng, []string{"2.0.28", "2.0.31", "2.0.42", "2.0.46"}),
		branch:    pick(rng, []string{"main", "main", "feature/" + pick(rng, nouns), "fix/" + pick(rng, nouns) + "-" + pick(rng, verbs)}),
		model:     pick(rng, []string{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250929", "claude-opus-4-1-20250805"}),
		lessons:   p.lessons,
		compactAt: compactEvery(rng),
	}
}

// compactEvery is how many bytes of conversation pass before the next auto-compaction.
func compactEvery(rng *rand.Rand) int64 { return 2<<20 + rng.Int64N(4<<20) }

func (s *session) write() error {
	if s.rng.IntN(2) == 0 {
		s.summaries()
	}
	for s.err == nil && (s.written < s.plan.target || len(s.lessons) > 0) {
		s.exchange()
	}
	s.flush()
	return s.err
}

// exchange is one user turn and everything the agent does about it.
func (s *session) exchange() {
	s.tick(10, 300)
	if s.rng.IntN(20) == 0 {
		s.localCommand()
	}
	text, lesson := s.nextUserText()
	s.userTurn(text, !lesson && s.rng.IntN(7) == 0)
	// A third of the exchanges are quick (a question, "commit it"); the rest take several steps.
	steps := 2 + s.rng.IntN(7)
	if lesson || s.rng.IntN(3) == 0 {
		steps = s.rng.IntN(2)
	}
	for range steps {
		switch {
		case s.rng.IntN(30) == 0:
			s.subagent()
		default:
			s.toolStep(&s.main, s.resultSize())
		}
		if s.rng.IntN(40) == 0 {
			s.interrupted()
			break
		}
		if s.written >= s.plan.target {
			break
		}
	}
	s.respond(&s.main, s.rng.IntN(3) == 0, 2+s.rng.IntN(9), nil)
	if s.sinceCompact >= s.compactAt {
		s.compact()
	}
}

// nextUserText is the next planted lesson once the session has reached its place, else an
// ordinary request.
func (s *session) nextUserText() (string, bool) {
	if len(s.lessons) > 0 && float64(s.written) >= s.lessons[0].at*float64(s.plan.target) {
		l := s.lessons[0]
		s.lessons = s.lessons[1:]
		return l.Text, true
	}
	return UserRequest(s.rng), false
}

// resultSize is the size of the next tool output: mostly a few kilobytes, one in six up to 30 KB,
// three in a hundred from 50 KB to 1 MB (a record twice that, as the output is stored twice), which
// hold most of the bytes. It never overshoots the session's planned size by much.
func (s *session) resultSize() int {
	var n int
	switch r := s.rng.Float64(); {
	case r < 0.80:
		n = 200 + s.rng.IntN(4<<10)
	case r < 0.97:
		n = 4<<10 + s.rng.IntN(26<<10)
	default:
		n = 50<<10 + s.rng.IntN(950<<10)
	}
	return int(min(int64(n), max(256, (s.plan.target-s.written)/2)))
}

// tick advances the clock by a random number of seconds in [lo, hi).
func (s *session) tick(lo, hi int) {
	s.now = s.now.Add(time.Duration(lo)*time.Second + time.Duration(s.rng.Int64N(int64(hi-lo)*1000))*time.Millisecond)
}

func (s *session) flush() {
	if s.err == nil && len(s.out) > 0 {
		_, s.err = s.w.Write(s.out)
	}
	s.out = s.out[:0]
}
