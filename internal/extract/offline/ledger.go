package offline

import (
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/textsim"
)

// entry is one memory as the run sees it: an existing memory, possibly rewritten by a newer
// statement, or a memory the run creates.
type entry struct {
	memory     *extract.Memory // nil for a memory this run creates
	lesson     *lesson         // the statement that sets its content; nil while untouched
	facts      facts
	texts      []textsim.Set // what duplicates are measured against
	evidence   []string
	supersedes []string
	retired    bool // superseded by a newer statement
	// installedIn is the session that ran the program an existing memory says is not installed,
	// and it worked: the memory is deleted (installedSince).
	installedIn string
	// repeatedBy are the sessions that stated again what the existing memory already says: the
	// memory is reinforced by them (and the pass records each as a re-teaching).
	repeatedBy []string
}

func (e *entry) pinned() bool { return e.memory != nil && e.memory.Pinned }

// current is the entry's statement as it now stands.
func (e *entry) current() string {
	if e.lesson != nil {
		return e.lesson.rule
	}
	return e.memory.Description
}

// ledger folds lessons, oldest first, into the memories they create, repeat or contradict.
type ledger struct {
	entries []*entry
	repeats int // lessons that said again what an existing memory holds
	pinned  int // lessons that contradicted a pinned memory, skipped
	vague   int // corrections with nothing to correct
}

func newLedger(memories []extract.Memory) *ledger {
	l := &ledger{}
	for i := range memories {
		m := &memories[i]
		e := &entry{memory: m, facts: factsOf(m.Description), texts: []textsim.Set{newSet(m.Description)}}
		if para := firstParagraph(m.Body); para != "" {
			e.texts = append(e.texts, newSet(para))
		}
		l.entries = append(l.entries, e)
	}
	return l
}

func firstParagraph(body string) string {
	body = strings.TrimSpace(body)
	if i := strings.Index(body, "\n\n"); i >= 0 {
		body = body[:i]
	}
	return body
}

// switchTo is a message that turns the session to another tool without naming the one it leaves:
// "OK switch to Google Sheets." after "We use Apple Numbers for the DB." (the judges of two sealed
// sets: the earlier fact is no longer so), in the languages the rules read.
var switchTo = lazyre.New(`(?i)^(?:(?:ok(?:ay)?|yes|yeah|then|so|alright|vale|bueno|entonces|d'accord|alors|ok\s+alors|gut|dann|então|好的?|那就?)[,.!，。]?\s*)*` +
	`(?:let'?s\s+|please\s+|vamos\s+a\s+)?(?:switch(?:\s+over)?\s+to|change\s+(?:it\s+)?to|move\s+to|migrate\s+to|cambia(?:mos)?\s+a|pasemos\s+a|passe\s+à|passons\s+à|wechsle\s+(?:zu|auf)|wechseln\s+wir\s+(?:zu|auf)|mude\s+para|muda\s+para|troque\s+para|换成|改用|改成)\s*((?-i:[A-Z][\w.+-]*))(?:\s+(\S+))?`)

// notATool are the capitalized words a switch goes to that are no tool: a step of the work, a
// mode, a language ("let's move to Phase 2", "switch to Plan mode", "switch to English").
var notATool = wordSet("Phase Step Stage Part Section Chapter Task Option Plan Mode Tab Page Screen View Branch Version " +
	"English Chinese Spanish French German Portuguese Japanese Korean Russian Italian Dutch Vietnamese")

// switchedTool reports whether text switches the session to a named tool, not to a step, a mode or
// a language.
func switchedTool(text string) bool {
	m := switchTo.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil || notATool[m[1]] {
		return false
	}
	// "Phase 2", "Option B", "Plan mode": a step's number or letter, a mode; "Python 3.12" is a version
	next := strings.ToLower(strings.TrimRight(m[2], ".,!?"))
	return next != "mode" && !stepNumber.MatchString(next)
}

// stepNumber is what numbers a step: "2", "b".
var stepNumber = lazyre.New(`^(?:\d+|[a-z])$`)

// switchedAway retires the last "we use …" that session s stated and this run would write: the
// person has just switched from it.
func (l *ledger) switchedAway(s *extract.Session) {
	for i := len(l.entries) - 1; i >= 0; i-- {
		e := l.entries[i]
		if e.retired || e.memory != nil || e.lesson == nil || e.lesson.session != s {
			continue
		}
		if e.lesson.label == "we use …" {
			e.retired = true
			return
		}
	}
}

func (l *ledger) live() []*entry {
	var out []*entry
	for _, e := range l.entries {
		if !e.retired {
			out = append(out, e)
		}
	}
	return out
}

// add folds in one lesson: a contradiction rewrites or supersedes what it contradicts, a repeat
// only reinforces, anything else is a new memory.
func (l *ledger) add(n *lesson) {
	hits, stale := l.contradicted(n)
	if slices.ContainsFunc(hits, (*entry).pinned) {
		l.pinned++
		return
	}
	if n.relative {
		if len(hits) == 0 || !n.resolve(hits[0]) {
			l.vague++
			return
		}
	}
	if len(hits) > 0 {
		l.replace(n, hits, stale)
		return
	}
	if e := l.echoed(n); e != nil {
		l.reinforce(e, n)
		return
	}
	if e := l.duplicateOf(n); e != nil {
		l.reinforce(e, n)
		return
	}
	l.entries = append(l.entries, newEntry(n))
}

// echoed returns the live entry of this run kept from a saying n repeats in other words, if any.
func (l *ledger) echoed(n *lesson) *entry {
	for _, e := range l.live() {
		if e.lesson == nil {
			continue
		}
		said := strings.TrimRight(e.lesson.sentence, "。！!. ")
		if slices.ContainsFunc(n.echoes, func(t string) bool { return strings.EqualFold(strings.TrimRight(t, "。！!. "), said) }) {
			return e
		}
	}
	return nil
}

func newEntry(n *lesson) *entry {
	e := &entry{}
	e.set(n)
	return e
}

// set gives e the content of n.
func (e *entry) set(n *lesson) {
	e.lesson, e.facts = n, n.facts
	e.texts = []textsim.Set{n.facts.words}
	e.evidence = append(slices.Clone(n.also), n.session.ID)
}

// contradicted returns the live entries n contradicts, most similar first, with the words that
// would make each one's name stale.
func (l *ledger) contradicted(n *lesson) ([]*entry, map[*entry]map[string]bool) {
	var hits []*entry
	stale := map[*entry]map[string]bool{}
	for _, e := range l.live() {
		if words, ok := contradiction(n.facts, e.facts); ok {
			hits = append(hits, e)
			stale[e] = words
		}
	}
	slices.SortStableFunc(hits, func(a, b *entry) int {
		sa, sb := similarity(n.facts, a.texts), similarity(n.facts, b.texts)
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	return hits, stale
}

// replace makes n the current truth in place of hits. It rewrites one of them in place when
// that keeps a truthful name (a memory this run creates, or one whose name does not name what n
// retires) and supersedes the rest, so that no contradicted fact stays presented as current.
func (l *ledger) replace(n *lesson, hits []*entry, stale map[*entry]map[string]bool) {
	target := pickTarget(hits, stale)
	if target == nil {
		target = &entry{}
		l.entries = append(l.entries, target)
	}
	supersedes := target.supersedes
	for _, e := range hits {
		if e == target {
			continue
		}
		e.retired = true
		supersedes = append(supersedes, e.supersedes...)
		if e.memory != nil {
			supersedes = append(supersedes, e.memory.Name)
		}
	}
	target.set(n)
	target.supersedes = uniqueSorted(supersedes)
}

func pickTarget(hits []*entry, stale map[*entry]map[string]bool) *entry {
	for _, e := range hits {
		if e.memory == nil {
			return e
		}
	}
	for _, e := range hits {
		if nameFits(e.memory.Name, stale[e]) {
			return e
		}
	}
	return nil
}

// nameFits reports whether a memory's name still tells the truth once its content is replaced:
// "database-engine" does after a move to Postgres, "database-is-mysql" does not.
func nameFits(name string, stale map[string]bool) bool {
	for _, part := range strings.Split(name, "-") {
		if stale[part] {
			return false
		}
		for _, w := range textsim.Words(part) {
			if stale[fold(w)] {
				return false
			}
		}
	}
	return true
}

// duplicateOf returns the live entry n restates, the most similar one when several do.
func (l *ledger) duplicateOf(n *lesson) *entry {
	var best *entry
	bestScore := -1.0
	for _, e := range l.live() {
		if !duplicate(n.facts, e.facts, e.texts) {
			continue
		}
		if s := similarity(n.facts, e.texts); s > bestScore {
			best, bestScore = e, s
		}
	}
	return best
}

// reinforce records a repeat. An existing memory's text is left alone (no churn) and the session
// that said it again is recorded, for a reinforcement; a memory of this run gains the session as
// evidence, and the reason when only the repeat gave one.
func (l *ledger) reinforce(e *entry, n *lesson) {
	if e.lesson == nil {
		if enriches(n, e) {
			if e.memory.Type != "" {
				n.typ = e.memory.Type
			}
			e.set(n)
			return
		}
		l.repeats++
		if !slices.Contains(e.repeatedBy, n.session.ID) {
			e.repeatedBy = append(e.repeatedBy, n.session.ID)
		}
		return
	}
	// A lesson said again names the earlier sessions that said it too (n.also): they are evidence.
	for _, id := range append(slices.Clone(n.also), n.session.ID) {
		if !slices.Contains(e.evidence, id) {
			e.evidence = append(e.evidence, id)
		}
	}
	if e.lesson.basis == "" && n.basis != "" && len(n.echoes) > 0 {
		e.lesson.basis = n.basis // the rule said once and asked again: the asking again is why it stands
	}
	if e.lesson.why == "" && n.why != "" {
		e.lesson.why = n.why
	}
}

// minNewWords is how much a restatement must add before it rewrites the memory it restates.
const minNewWords = 3

// enriches reports whether n says all that the existing memory of e says and more ("staging is
// https://staging.shop.example and deploys there happen on every merge to main" after "Staging is
// at https://staging.shop.example"): the memory is rewritten with the new detail. Only a memory
// whose body is one paragraph is, so that no reason or hand-written note of it is lost.
func enriches(n *lesson, e *entry) bool {
	m := e.memory
	body := strings.TrimSpace(m.Body)
	if m.Pinned || strings.Contains(body, "\n\n") {
		return false
	}
	for _, t := range e.texts {
		if len(t) == 0 || textsim.Containment(t, n.facts.words) < 1 || len(t) >= len(n.facts.words) {
			return false
		}
	}
	fresh := 0
	for w := range n.facts.words {
		if !slices.ContainsFunc(e.texts, func(t textsim.Set) bool { _, ok := t[w]; return ok }) {
			fresh++
		}
	}
	return fresh >= minNewWords
}

// resolve turns a relative correction ("it's Postgres, not MySQL") into a full statement by
// substituting in what it corrects ("The database is MySQL" → "The database is Postgres").
func (n *lesson) resolve(e *entry) bool {
	if len(n.facts.retires) == 0 || len(n.facts.adopts) == 0 {
		return false
	}
	old, repl := n.facts.retires[0].text, n.facts.adopts[0].text
	current := e.current()
	i := indexWord(current, old)
	if i < 0 {
		return false
	}
	rule := current[:i] + repl + current[i+len(old):]
	n.rule, n.core, n.sentence = rule, rule, rule
	if n.why != "" {
		n.sentence = rule + ", because " + n.why
	}
	n.relative = false
	if e.lesson != nil {
		n.typ = e.lesson.typ
	} else if e.memory.Type != "" {
		n.typ = e.memory.Type
	}
	retires := n.facts.retires
	n.facts = factsOf(rule)
	n.facts.retires = retires
	return true
}

// indexWord finds word in s, ASCII-case-insensitively (so that byte offsets hold), as a whole
// word.
func indexWord(s, word string) int {
	lower, w := asciiLower(s), asciiLower(word)
	if w == "" {
		return -1
	}
	for from := 0; ; {
		i := strings.Index(lower[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(lower[i-1])) && (end == len(lower) || !isWordByte(lower[end])) {
			return i
		}
		from = i + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}

func uniqueSorted(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	out := slices.Clone(list)
	slices.Sort(out)
	return slices.Compact(out)
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
