package offline

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/reldate"
)

// maxSentence bounds a statement: longer sentences are task descriptions, not lessons.
const maxSentence = 300

// lesson is one explicit statement from a user turn, ready to become a memory.
type lesson struct {
	typ      memory.Type
	label    string // how it was said, quoted in the reason: "remember that …"
	rule     string // the statement without its reason, dates absolute
	sentence string // the statement with its reason, as said
	why      string // the user's stated reason, "" when none
	core     string // the rule without its opening date, what the name is made of
	decision bool
	relative bool // "it's Y, not X": meaningful only against the memory it corrects
	facts    facts
	session  *extract.Session
	message  int // which of the session's user messages said it, from 1; 0 when unknown
	// basis says which turns established a lesson the work showed rather than one the person
	// stated (a command that worked, the person's answer to a question); "" for a statement.
	basis string
	// command is the command a lesson of a command that worked names: a memory already naming it
	// says it better (the person's "always run make check first"), so none is added.
	command string
	also    []string // earlier sessions that established the lesson too
	echoes  []string // for a guard asked again (repeatedGuard), the earlier sayings it repeats: a memory of one of them is reinforced, not doubled
	lang    string   // the language of a rule said in another language than English (lang.go), "" for English
	missing string   // the program a lesson says is not installed (notInstalled), "" for any other
}

// parse turns one sentence of a user turn into a lesson, or reports that it is none.
func parse(sentence string, s *extract.Session, ref time.Time) (*lesson, bool) {
	return parseFlagged(sentence, "", s, ref)
}

// parseFlagged is parse for a sentence the person flagged afterwards ("… Keep that in mind."):
// marker is how they flagged it, "" when they did not.
func parseFlagged(sentence, marker string, s *extract.Session, ref time.Time) (*lesson, bool) {
	text := scrubUserinfo(tidy(sentence))
	if text == "" || len(text) > maxSentence || isQuestion(text) || hasSecret(text) || isBackFlag(text) || consequence.MatchString(text) || introduces(text) {
		return nil, false
	}
	var given lead
	if marker != "" {
		given = lead{explicit: true, marker: marker}
	}
	if rest, flag, ok := cutTrailingFlag(text); ok {
		text = rest
		given = given.with(explicit, flag)
	}
	l, rest := stripLeads(text)
	l = given.merge(l)
	if n, ok := build(l, rest, s, ref); ok {
		return n, true
	}
	// "Heads up: we migrated …", "Before you start on the filters: I prefer …": a short
	// preamble says nothing itself, the statement after it does.
	pre, after, ok := cutPreamble(rest)
	if !ok {
		return nil, false
	}
	l2, after := stripLeads(after)
	return build(l.merge(pre).merge(l2), after, s, ref)
}

// introduces reports whether a sentence only leads into what follows it ("For the record — what
// this session produced:"): the lesson, if any, is in the lines after it.
func introduces(sentence string) bool {
	return strings.HasSuffix(sentence, ":") || strings.HasSuffix(sentence, "：")
}

// build makes a lesson of rest, the statement once the openings that led into it are gone.
func build(l lead, rest string, s *extract.Session, ref time.Time) (*lesson, bool) {
	if rest == "" {
		return nil, false
	}
	if !l.marked() && upcoming.MatchString(rest) {
		return nil, false
	}
	ofToday := today.MatchString(rest)
	if !ref.IsZero() {
		rest = reldate.Rewrite(rest, ref)
	}
	rest = cutTaskTail(rest)
	rule, why := splitReason(rest)
	core := stripTimeLead(rule)
	if core == "" || isEphemeral(rest) || !hasLetters(core) {
		return nil, false
	}
	fm, ok := classify(core, l)
	if !ok || !fm.form.relative && leansOnContext(core) || (fm.form.re == nil || fm.form.gate == marked) && ofToday {
		return nil, false
	}
	n := &lesson{typ: fm.form.typ, label: fm.label, rule: rule, sentence: rest, why: why, core: core,
		decision: fm.form.decision, relative: fm.form.relative, session: s}
	if n.typ == "user" || fm.label == "I prefer …" {
		n.rule, n.sentence, n.core = thirdPerson(n.rule), thirdPerson(n.sentence), thirdPerson(n.core)
	}
	if l.marker != "" {
		n.label = l.marker + " …"
	}
	n.facts = factsOf(n.core)
	if n.typ == "project" && (urlRE.MatchString(n.core) && n.facts.rel != nil) {
		n.typ = "reference"
	}
	return n, true
}

var (
	spaces = lazyre.New(`\s+`)
	quotes = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`)
)

// tidy makes one clean line of s: typographic quotes plain, bold marks gone outside code spans,
// spaces single.
func tidy(s string) string {
	s = quotes.Replace(strings.ToValidUTF8(s, ""))
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.ReplaceAll(parts[i], "**", "")
	}
	s = strings.Join(parts, "`")
	s = spaces.ReplaceAllString(s, " ")
	return strings.Trim(s, ` "'*_`)
}

func hasLetters(s string) bool {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n >= 3
}

var (
	reasonSep = re(`(?:\s*,)?\s+(because|since|so\s+that|otherwise)\s+|\s+(?:—|–|--|-)\s+|\s*\(because\s+`)
	// notCausal follows a temporal "since": "since 2026-11-17", "since the last release".
	notCausal = re(`^(?:\d|v\d|version|then|forever|yesterday|today|last|the\s+(?:last|first|start|beginning)|january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)`)
)

// today marks how things are on the day they are said. A statement that is a lesson only because
// it was flagged ("remember that the tests are slow today") is news when it says it; a migration
// "today" still is a lesson.
var today = re(`\b(?:today|tonight|this\s+(?:morning|afternoon|evening|week)|currently|at\s+the\s+moment|these\s+days)\b`)

// taskTail is the request that closes a statement: "…, so fix the rate too", "I'm new to ash,
// take a look at user.ex and tell me what it does". It is about the task at hand, not part of the
// lesson.
var taskTail = re(`,\s*(?:(?:so|and\s+then)\s+(?:please\s+)?(?:fix|update|change|adjust|correct|rename|add|remove|delete|check|replace|refactor)\b|(?:so\s+|and\s+)?(?:please\s+)?(?:take\s+a\s+look|have\s+a\s+look|look\s+at|tell\s+me|show\s+me|explain|help\s+me|walk\s+me|can\s+you|could\s+you|would\s+you)\b).*$`)

func cutTaskTail(s string) string {
	if loc := taskTail.FindStringIndex(s); loc != nil && len(strings.Fields(s[:loc[0]])) >= 3 {
		return s[:loc[0]]
	}
	return s
}

// splitReason separates the rule from the reason the person gave for it ("…, because …",
// "… since …", "… — …"). Both parts must be substantial, or there is no split.
func splitReason(s string) (rule, why string) {
	for _, loc := range reasonSep.FindAllStringSubmatchIndex(s, -1) {
		before, after := s[:loc[0]], s[loc[1]:]
		word := ""
		if loc[2] >= 0 {
			word = strings.ToLower(s[loc[2]:loc[3]])
		}
		if word == "since" && notCausal.MatchString(after) {
			continue
		}
		if word == "so that" || word == "otherwise" {
			after = s[loc[2]:]
		}
		after = strings.TrimRight(after, ") ")
		if len(strings.Fields(before)) >= 2 && len(strings.Fields(after)) >= 2 {
			return strings.TrimSpace(before), strings.TrimSpace(after)
		}
	}
	return s, ""
}

// thirdPerson rewrites a statement about the speaker so that it reads right in a memory the agent
// loads later: "I'm a data scientist" → "The user is a data scientist".
func thirdPerson(s string) string {
	for _, o := range selfOpeners {
		if o.re.MatchString(s) {
			s = o.re.ReplaceAllString(s, o.to)
			break
		}
	}
	s = selfWords.ReplaceAllStringFunc(s, func(w string) string { return thirdPersonOf[strings.ToLower(w)] })
	// "and I am the founder" became "and they am": they are, as "I was" is "they were".
	return theyAm.ReplaceAllStringFunc(s, func(w string) string {
		if strings.HasSuffix(strings.ToLower(w), "was") {
			return w[:len(w)-3] + "were"
		}
		return w[:len(w)-2] + "are"
	})
}

// theyAm is a first person's verb left after "I" became "they".
var theyAm = lazyre.New(`\bthey\s+(?:am|was)\b`)

// thirdPersonOf is what each first-person word selfWords matches becomes.
var thirdPersonOf = map[string]string{"my": "their", "me": "them", "i'm": "they're", "i": "they", "mine": "theirs"}

var (
	// selfOpeners are anchored, so each replaces one opening at most.
	selfOpeners = []struct {
		re *lazyre.Regexp
		to string
	}{
		{re(`^(?:i\s+am|i'm|im)\b`), "The user is"},
		{re(`^i(?:'ve|\s+have)\b`), "The user has"},
		{re(`^i(?:'d|\s+would)\b`), "The user would"},
		{re(`^i\s+(mostly|mainly|usually|primarily|only)\s+(\w+)\b`), "The user $1 ${2}s"},
		{re(`^i\s+(prefer|like|love|work|write|use|code|program)\b`), "The user ${1}s"},
		{re(`^my\b`), "The user's"},
	}
	selfWords = lazyre.New(`(?i)\b(?:my|me|i'm|mine)\b|\bI\b`)
)

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// consequence is a sentence that says what the one before it brings ("then I don't have to …",
// "that way …"): it leans on a request, it is no rule of its own.
var consequence = lazyre.New(`(?i)^(?:then|so\s+that|that\s+way|this\s+way|otherwise)\b`)
