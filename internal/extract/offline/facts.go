package offline

import (
	"math"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/textsim"
)

// facts is what a statement asserts, in a form that can be compared with another statement: the
// same parse serves new lessons and the descriptions of existing memories.
type facts struct {
	words    textsim.Set
	retires  []phrase    // what it says is no longer current: "MySQL" of "we migrated from MySQL to …"
	adopts   []phrase    // what replaces it
	polarity int         // +1 always, -1 never / don't, 0 neither
	action   textsim.Set // what the always / never is about
	rel      *relation
}

// phrase is a piece of a statement, as typed and as words.
type phrase struct {
	text  string
	words textsim.Set
}

// relation is "subject is value" or "subject lives in value": a fact with one current value.
type relation struct {
	kind           string // "is" or "at"
	subject, value textsim.Set
	path           bool // the value is a path or a file: a place nothing else lives in by chance
}

const clauseEnd = `(?:$|[,;:!?]|\.(?:\s|$)|\s+(?:because|since|so|when|on\s+\d|in\s+\d|last|yesterday|today|anymore|any\s+more)\b)`

var (
	fromTo      = re(`\b(?:migrat|mov|switch|chang|transition|upgrad|convert|port|went)\w*\b.*?\bfrom\s+(.+?)\s+(?:to|onto|over\s+to)\s+(.+?)` + clauseEnd)
	noLonger    = re(`\bno\s+longer\s+(use[sd]?\s+|using\s+|need\s+|have\s+|run\s+)?(.+?)` + clauseEnd)
	passiveGone = re(`^(?:the\s+|our\s+)?(.{1,40}?)\s+(?:is|are)\s+(?:now\s+)?(?:no\s+longer\s+(?:used|needed|supported|maintained|in\s+use)|deprecated|obsolete|decommissioned|retired)\b`)
	movedOff    = re(`\b(?:moved|migrated|switched)\s+(?:away\s+)?(?:off|away\s+from)\s+(.+?)` + clauseEnd)
	insteadOf   = re(`\b(?:instead\s+of|rather\s+than)\s+(.+?)` + clauseEnd)
	stopped     = re(`\b(?:stopped|stop)\s+using\s+(.+?)` + clauseEnd)
	dropped     = re(`\b(?:dropped|removed|deprecated|retired|got\s+rid\s+of|sunset)\s+(.+?)` + clauseEnd)
	notAnymore  = re(`\b(?:don't|do\s+not)\s+use\s+(.+?)\s+any\s*more\b`)
	weDont      = re(`^we\s+(?:don't|do\s+not)\s+use\s+(.+?)` + clauseEnd)
	commaNot    = re(`,\s*(?:and\s+)?not\s+(.+?)` + clauseEnd)
	thisNotThat = re(`^(?:use|prefer|it's|it\s+is|its|that's|that\s+is)\s+(\S+(?:\s+\S+){0,2}?),?\s+(?:and\s+)?not\s+(.+?)` + clauseEnd)
	adopted     = re(`^(?:\w+\s+)?(?:use|using|prefers?|choose|pick|go\s+with|stick\s+(?:with|to)|switch\s+to|it's|it\s+is|that's)\s+(.+?),?\s+(?:instead\s+of|rather\s+than|over|not|and\s+not)\b`)
	preferOver  = re(`\b(?:prefers?|preferring|use|choose|pick)\s+(.+?)\s+over\s+(.+?)` + clauseEnd)
	preferTo    = re(`\bprefers?\s+(.+?)\s+to\s+(.+?)` + clauseEnd)
	toolTail    = re(`\s+(?:for|in|on|at|with|as|to|when|across|from)\s+.*$`)

	polar = re(`^(?:we\s+|you\s+|the\s+user\s+)?(?:should\s+|must\s+)?(always|never|don't|do\s+not|dont|avoid|stop)\s+(?:ever\s+)?(.+)$`)

	movedTo  = re(`^we(?:'ve|\s+have)?\s+moved\s+(?:the\s+|our\s+)?(.+?)\s+(?:to|into|under)\s+(.+?)` + clauseEnd)
	movedTo2 = re(`^(?:the\s+|our\s+)?(.{1,60}?)\s+(?:has|have)\s+(?:been\s+)?moved\s+(?:to|into|under)\s+(.+?)` + clauseEnd)
	// whereRel is a place said first: "db/migrations is where schema changes go".
	whereRel = re(`^(?:the\s+|our\s+)?(\S+(?:\s+\S+){0,2}?)\s+(?:is|are)\s+where\s+(?:the\s+|our\s+|all\s+)?(.{1,60}?)\s+(?:go|goes|live|lives|belong|belongs|(?:are|is)\s+(?:kept|stored|defined))\b`)
	// keepIn is "we keep every timestamp in UTC": where, or in what form, things are kept.
	keepIn = re(`^we\s+(?:always\s+)?(?:keep|store|save|persist|put)\s+(?:all\s+|every\s+|each\s+|the\s+|our\s+)?(.{1,40}?)\s+(?:in|as|under)\s+(.+?)` + clauseEnd)
	isRel  = re(`^(?:(?:the|our)\s+(.{1,50}?)|(\S+(?:\s+\S+){0,2}?))\s+(?:is|are)\s+(?:now\s+)?(.+?)` + clauseEnd)
	// deployedOn is where a thing is deployed: one place at a time, "the project is deployed on
	// Vercel" until it is "now deployed on Railway".
	deployedOn = re(`^(?:the\s+|our\s+)?(.{1,40}?)\s+(?:is|are)\s+(?:now\s+)?(?:deployed|hosted)\s+(?:on|to|at|with)\s+(.+?)` + clauseEnd)
	// valueNot opens a description rather than a value: "is not …", "is rate-limited …", "is in …".
	valueNot = re(`^(?:not|no|never|in|at|under|inside|on|a\s+bit|very|too|also|still|always|usually|deprecated|obsolete|\w+ed|\w+-\w+ed)\b`)
)

// factsOf parses what text asserts.
func factsOf(text string) facts {
	_, text = stripLeads(tidy(text))
	text = stripTimeLead(text)
	f := facts{words: newSet(text)}
	f.retires, f.adopts = replacements(text)
	if m := polar.FindStringSubmatch(text); m != nil {
		f.polarity = -1
		if strings.EqualFold(m[1], "always") {
			f.polarity = 1
		}
		f.action = newSet(m[2])
	}
	f.rel = relationOf(text)
	return f
}

// replacements finds what text says is no longer current and what took its place.
func replacements(text string) (retires, adopts []phrase) {
	add := func(list []phrase, s string) []phrase {
		p := newPhrase(s)
		if len(p.words) == 0 || len(p.words) > 5 {
			return list
		}
		return append(list, p)
	}
	if m := fromTo.FindStringSubmatch(text); m != nil {
		retires, adopts = add(retires, m[1]), add(adopts, m[2])
	}
	if m := noLonger.FindStringSubmatch(text); m != nil {
		gone := m[2]
		if m[1] != "" { // "no longer use Jenkins for CI": the tool is what went
			gone = toolTail.ReplaceAllString(gone, "")
		}
		retires = add(retires, gone)
	}
	for _, r := range []*lazyre.Regexp{movedOff, passiveGone, insteadOf, stopped, dropped, notAnymore, weDont, commaNot} {
		if m := r.FindStringSubmatch(text); m != nil {
			retires = add(retires, m[1])
		}
	}
	if m := thisNotThat.FindStringSubmatch(text); m != nil {
		retires, adopts = add(retires, m[2]), add(adopts, m[1])
	} else if m := adopted.FindStringSubmatch(text); m != nil {
		adopts = add(adopts, m[1])
	}
	for _, r := range []*lazyre.Regexp{preferOver, preferTo} {
		if m := r.FindStringSubmatch(text); m != nil {
			retires, adopts = add(retires, m[2]), add(adopts, m[1])
		}
	}
	retires, adopts = dedupPhrases(retires), dedupPhrases(adopts)
	// "Use `python`, not `python3`": once words are compared without their versions, what
	// is retired is what is adopted, and nothing that merely names Python is retired.
	retires = slices.DeleteFunc(retires, func(r phrase) bool {
		return slices.ContainsFunc(adopts, func(a phrase) bool { return sameSet(a.words, r.words) })
	})
	return retires, adopts
}

func newPhrase(s string) phrase {
	s = strings.Trim(strings.TrimSpace(s), ".,;:!\"'")
	return phrase{text: s, words: newSet(s)}
}

func dedupPhrases(list []phrase) []phrase {
	var out []phrase
	for _, p := range list {
		dup := false
		for _, q := range out {
			if sameSet(p.words, q.words) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// relationOf finds "X lives in Y", "we moved X to Y" or "the X is Y" in text.
func relationOf(text string) *relation {
	if r := frameworkRelation(text); r != nil {
		return r
	}
	if m := locationForm.FindStringSubmatch(text); m != nil && isLocation(text, m) {
		place, _, _ := strings.Cut(trimClause(m[3]), " and ")
		return newRelation("at", m[1], place)
	}
	if m := whereRel.FindStringSubmatch(text); m != nil && !pronoun.MatchString(m[1]) {
		return newRelation("at", m[2], m[1])
	}
	if m := keepIn.FindStringSubmatch(text); m != nil {
		return newRelation("at", m[1], m[2])
	}
	for _, r := range []*lazyre.Regexp{movedTo, movedTo2} {
		if m := r.FindStringSubmatch(text); m != nil && !strings.HasPrefix(strings.ToLower(m[1]), "from ") {
			return newRelation("at", m[1], m[2])
		}
	}
	if m := deployedOn.FindStringSubmatch(text); m != nil && !pronoun.MatchString(m[1]) {
		return newRelation("deployed", m[1], m[2])
	}
	if m := isRel.FindStringSubmatch(text); m != nil {
		subject := m[1] + m[2]
		if pronoun.MatchString(subject) || valueNot.MatchString(m[3]) || len(newSet(m[3])) > 3 {
			return nil
		}
		return newRelation("is", subject, m[3])
	}
	return nil
}

var clauseCut = re(clauseEnd)

func trimClause(s string) string {
	if loc := clauseCut.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

// newRelation builds a relation, or nil when it would be too vague to compare: a long subject is
// a clause rather than a thing, and "the user is …" holds many true values at once.
func newRelation(kind, subject, value string) *relation {
	r := &relation{kind: kind, subject: newSet(subject), value: newSet(value), path: strings.Contains(value, "/")}
	if len(r.subject) == 0 || len(r.subject) > 4 || len(r.value) == 0 || sameSet(r.subject, userSubject) {
		return nil
	}
	return r
}

var userSubject = newSet("user")

// foldLen folds what textsim's light stemming leaves apart ("commit" and "committing",
// "deploy" and "deployment", "config" and "configuration"): words compare by their first runes.
const foldLen = 6

// newSet is textsim's normalized word set of s, each word folded to foldLen runes.
func newSet(s string) textsim.Set {
	set := textsim.Set{}
	for _, w := range textsim.Words(s) {
		set[fold(w)] = struct{}{}
	}
	return set
}

func fold(w string) string {
	if r := []rune(w); len(r) > foldLen {
		return string(r[:foldLen])
	}
	return w
}

// covers reports whether set holds (nearly) all of words.
func covers(set, words textsim.Set) bool {
	n := 0
	for w := range words {
		if _, ok := set[w]; ok {
			n++
		}
	}
	return n > 0 && n >= int(math.Ceil(0.75*float64(len(words))))
}

func sameSet(a, b textsim.Set) bool {
	return len(a) == len(b) && textsim.Jaccard(a, b) == 1
}

// polarityWords are the name parts that state a rule's direction ("never-push-to-main").
var polarityWords = map[string]bool{"always": true, "never": true, "dont": true, "don": true,
	"avoid": true, "stop": true, "no": true, "not": true}

// contradiction reports whether n, said later, makes what e says no longer true, and which
// words of e's name would then be stale.
func contradiction(n, e facts) (stale map[string]bool, ok bool) {
	stale = map[string]bool{}
	for _, r := range n.retires {
		if covers(e.words, r.words) && !e.retiresSome(r.words) && (len(e.words) <= 8 || sharesBeyond(n.words, e.words, r.words)) {
			ok = true
			addStale(stale, r.words, n.adoptedWords())
		}
	}
	if n.polarity*e.polarity == -1 && similarAction(n.action, e.action) {
		ok = true
		for w := range polarityWords {
			stale[w] = true
		}
	}
	if n.rel != nil && e.rel != nil && n.rel.kind == e.rel.kind &&
		textsim.Jaccard(n.rel.subject, e.rel.subject) >= 0.5 && differ(n.rel.value, e.rel.value) {
		ok = true
		addStale(stale, e.rel.value, n.rel.value)
	}
	return stale, ok
}

// addStale adds the words of old that new does not also say.
func addStale(stale map[string]bool, old, new textsim.Set) {
	for w := range old {
		if _, kept := new[w]; !kept {
			stale[w] = true
		}
	}
}

func (f facts) adoptedWords() textsim.Set {
	set := textsim.Set{}
	for _, p := range f.adopts {
		for w := range p.words {
			set[w] = struct{}{}
		}
	}
	return set
}

// retiresSome reports whether f itself says (some of) words are no longer current: "we migrated
// from MySQL" is not contradicted by "we no longer use MySQL".
func (f facts) retiresSome(words textsim.Set) bool {
	for _, p := range f.retires {
		if textsim.Containment(p.words, words) >= 0.5 {
			return true
		}
	}
	return false
}

// sharesBeyond reports whether a and b share a word that is not in except: a long memory that
// merely mentions a retired tool is only contradicted when it is about the same topic.
func sharesBeyond(a, b, except textsim.Set) bool {
	for w := range a {
		if _, in := b[w]; in {
			if _, skip := except[w]; !skip {
				return true
			}
		}
	}
	return false
}

// differ reports whether two values of a relation name different things: "sql/migrations" and
// "db/migrations" do, "Postgres" and "Postgres 16" do not.
func differ(a, b textsim.Set) bool {
	return textsim.Jaccard(a, b) < 0.5 && textsim.Containment(a, b) < 1
}

func similarAction(a, b textsim.Set) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	return textsim.Jaccard(a, b) >= 0.6 || textsim.Containment(a, b) == 1
}

// duplicate reports whether n says again what one of texts says: nearly the same words
// (Jaccard ≥ 0.7), most of one inside the other (containment ≥ 0.8, Jaccard ≥ 0.5), or all of
// one inside the other when that is a real statement (containment 1 with Jaccard ≥ 0.4 or at
// least three words: a short lesson restated inside a longer memory). The thresholds keep
// "run make lint first" apart from "run make test first" (Jaccard 0.6, containment 0.75) and
// are pinned by the tests. Rules of opposite direction are never duplicates.
func duplicate(n, e facts, texts []textsim.Set) bool {
	if n.polarity*e.polarity == -1 {
		return false
	}
	if sameRelation(n.rel, e.rel) {
		return true
	}
	for _, t := range texts {
		j, c := textsim.Jaccard(n.words, t), textsim.Containment(n.words, t)
		if j >= 0.7 || c >= 0.8 && j >= 0.5 || c == 1 && (j >= 0.4 || min(len(n.words), len(t)) >= 3) {
			return true
		}
	}
	return false
}

// sameRelation reports whether two relations say one thing: the same value for the same subject
// ("all timestamps are stored in UTC", "we keep every timestamp in UTC"), or the same path for
// whatever lives there ("migrations live in db/migrations", "db/migrations is where schema changes
// go").
func sameRelation(a, b *relation) bool {
	if a == nil || b == nil || a.kind != b.kind || differ(a.value, b.value) {
		return false
	}
	return textsim.Jaccard(a.subject, b.subject) >= 0.5 || a.kind == "at" && a.path && b.path
}

// similarity ranks candidates: the best match is the one a lesson most likely restates.
func similarity(n facts, texts []textsim.Set) float64 {
	best := 0.0
	for _, t := range texts {
		best = max(best, textsim.Jaccard(n.words, t))
	}
	return best
}
