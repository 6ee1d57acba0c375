package offline

import (
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// lead is what the words before a statement said about it.
type lead struct {
	marker     string // the lesson marker as typed ("remember that", "from now on"), for the reason
	corrector  string // the correction word as typed ("no", "actually")
	explicit   bool   // remember / note / FYI / keep in mind: the person flagged a lesson
	future     bool   // from now on / going forward: a standing rule
	correction bool   // no, / actually,: the person corrects the agent
}

// marked reports whether the person flagged the statement as something to keep.
func (l lead) marked() bool { return l.explicit || l.future }

type leadKind int

const (
	filler leadKind = iota
	explicit
	future
	correction
)

const leadEnd = `[\s,:;.!—–-]*`

// leadIns are the openings stripped before a statement is classified, tried in order, repeatedly.
var leadIns = []struct {
	re   *lazyre.Regexp
	kind leadKind
}{
	{lazyre.New(`(?i)^(?:please\s+)?(?:` + rememberWord + `|don't\s+forget|do\s+not\s+forget|dont\s+forget)(?:\s+that\b|\s*[:,—–-])` + leadEnd), explicit},
	{lazyre.New(`(?i)^(?:please\s+)?(?:note|nb|n\.b\.)(?:\s+that\b|\s*[:,—–-])` + leadEnd), explicit},
	{lazyre.New(`(?i)^(?:please\s+)?(?:save|store|add|put|write|keep)(?:\s+(?:this|that|it|the\s+following))?\s+(?:to|in|into)\s+(?:your\s+|the\s+)?memor(?:y|ies)(?:\s+that\b|\s*[:,—–-])` + leadEnd), explicit},
	{lazyre.New(`(?i)^(?:fyi|for\s+your\s+information|for\s+the\s+record|just\s+so\s+you\s+know|for\s+future\s+reference|for\s+(?:next\s+time|the\s+future|later)|(?:keep|bear)\s+in\s+mind(?:\s+that)?)\b` + leadEnd), explicit},
	{lazyre.New(`(?i)^(?:lesson(?:\s+learned)?|rule|tip|decision|decided)\s*:` + leadEnd), explicit},
	{lazyre.New(`(?i)^(?:(?:oh,?\s+)?i\s+forgot\s+to\s+(?:mention|say|tell\s+you)|forgot\s+to\s+mention|it(?:'s|\s+is)\s+(?:very\s+|really\s+|super\s+|extremely\s+)?important)(?:\s+that\b|\s*[:,—–-])` + leadEnd), explicit},
	{lazyre.New(`(?i)^(?:from\s+now\s*,|(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|from\s+here\s+on(?:\s+out)?|henceforth|starting\s+(?:now|today)|by\s+default)\b)` + leadEnd), future},
	{lazyre.New(`(?i)^(?:(?:no|nope|nah)\s*[,.!—–-]+|actually\b|correction\s*:|to\s+clarify\b|to\s+be\s+clear\b)` + leadEnd), correction},
	{lazyre.New(`(?i)^(?:please|just|also|and|oh|btw|by\s+the\s+way|ok|okay|alright|so|thanks|thank\s+you|great|cool|perfect|nice|yes|yeah|yep|sure|hi|hello|hey|well|one\s+more\s+thing|again|right|you're\s+right|got\s+it|sorry|oops|my\s+bad|good\s+point|true|i\s+see|understood|fine)\b` + leadEnd), filler},
}

// importantThat is "it's very important that …", which flags a lesson unless what follows asks
// the agent for something now ("it is important that you read the file first").
var (
	importantThat = lazyre.New(`(?i)^it(?:'s|\s+is)\s`)
	toAgent       = lazyre.New(`(?i)^you\b`)
)

// remindTo is "remember to X": a rule to do X.
var remindTo = lazyre.New(`(?i)^(?:please\s+)?(?:` + rememberWord + `|don't\s+forget|do\s+not\s+forget|dont\s+forget)\s+to\s+`)

// alsoStep is what follows "remember to" when it adds a step to the request it ends ("rename
// these files, and remember to also update the __init__.py"): the day's task, no rule.
var alsoStep = lazyre.New(`(?i)^also\b`)

// rememberWord is "remember" as people type it in a hurry: remeber, rember, remmber.
const rememberWord = `remember|remeber|rember|remmber|remembr|rememeber`

// ruleOpener turns "let's always X", "you should never X" into "always X", "never X".
var ruleOpener = lazyre.New(`(?i)^(?:let's|let\s+us|we\s+should|you\s+should|you\s+must|we\s+must|make\s+sure\s+(?:to|you)|be\s+sure\s+to|i\s+want\s+you\s+to|i'd\s+like\s+you\s+to)\s+(always|never)\b`)

// bareRemember is "remember the X is Y" without "that": the marker is cut up to the statement,
// which opens with a determiner or a path. "Remember when …" and "remember me" are not cut.
var bareRemember = lazyre.New(`(?i)^(?:please\s+)?(remember|note|don't\s+forget|do\s+not\s+forget)\s+((?:the|our|all|every|each|any)\s|[\w-]*[/.][\w./-]*\s+(?:is|are|must|has|have|needs?|lives?)\b)`)

// stripLeads removes the openings of s and reports what they said.
func stripLeads(s string) (lead, string) {
	var l lead
	for range 8 {
		if m := remindTo.FindString(s); m != "" {
			if !alsoStep.MatchString(s[len(m):]) {
				l.explicit = true
				l.marker = firstMarker(l.marker, "remember to")
			}
			s = capitalize(s[len(m):])
			continue
		}
		if m := bareRemember.FindStringSubmatchIndex(s); m != nil {
			l = l.with(explicit, s[m[2]:m[3]])
			s = s[m[4]:]
			continue
		}
		if m := ruleOpener.FindStringSubmatchIndex(s); m != nil {
			s = s[m[2]:]
			continue
		}
		matched := false
		for _, in := range leadIns {
			m := in.re.FindString(s)
			if m == "" || in.kind == explicit && importantThat.MatchString(m) && toAgent.MatchString(s[len(m):]) {
				continue
			}
			l = l.with(in.kind, m)
			s = s[len(m):]
			matched = true
			break
		}
		if !matched {
			break
		}
	}
	return l, strings.TrimSpace(s)
}

func (l lead) with(kind leadKind, typed string) lead {
	typed = strings.ToLower(strings.TrimRight(typed, " ,:;.!—–-"))
	switch kind {
	case explicit:
		l.explicit = true
		l.marker = firstMarker(l.marker, typed)
	case future:
		l.future = true
		l.marker = firstMarker(l.marker, typed)
	case correction:
		l.correction = true
		l.corrector = firstMarker(l.corrector, typed)
	}
	return l
}

// merge adds what o said to l; l's markers come first.
func (l lead) merge(o lead) lead {
	l.explicit = l.explicit || o.explicit
	l.future = l.future || o.future
	l.correction = l.correction || o.correction
	l.marker = firstMarker(l.marker, o.marker)
	l.corrector = firstMarker(l.corrector, o.corrector)
	return l
}

var (
	// preamble is a short opening clause that ends in ':' or a dash: "Quick context before we
	// start:", "Heads up —". It may not hold code, a link or a clock time.
	preamble = lazyre.New(`^([^:\x60—–]{1,80}?)(?::\s+|\s+(?:—|–|--)\s+)(\S.*)$`)
	// preambleFlags are the preambles that flag what follows as worth keeping.
	// preambleChores introduce the person's own to-do or status, not a lesson.
	preambleChores = lazyre.New(`(?i)\b(?:to\s+self|todo|to-do|wip|status|update|progress|plan|next\s+steps?|reminder\s+to\s+self)\b`)
	preambleFlags  = lazyre.New(`(?i)\b(?:reminder|important|fyi|note|tip|rule|policy|convention|for\s+(?:next\s+time|the\s+future|future\s+reference|the\s+record|later)|keep\s+in\s+mind|remember)\b`)
)

// maxPreambleWords bounds a preamble: a longer clause before a colon is a statement itself.
const maxPreambleWords = 8

// cutPreamble splits a short preamble off s and reports what it said about the rest.
func cutPreamble(s string) (lead, string, bool) {
	m := preamble.FindStringSubmatch(s)
	// What follows a program's own label ("Error generating delivery note PDF: Error: ENOENT …")
	// is the program's output, whatever words the label holds.
	if m == nil || len(strings.Fields(m[1])) > maxPreambleWords || urlRE.MatchString(m[1]) || preambleChores.MatchString(m[1]) || looksLikeToolOutput(m[2]) {
		return lead{}, "", false
	}
	var l lead
	if f := preambleFlags.FindString(m[1]); f != "" {
		l = l.with(explicit, f)
	}
	return l, m[2], true
}

// trailingFlag is a flag said after the statement: "…, that's the business rule", "… — keep
// that in mind".
var trailingFlag = lazyre.New(`(?i)(?:\s*[,;.]\s*|\s+(?:—|–|--)\s+)(?:and\s+)?((?:that's|that\s+is|this\s+is|it's|which\s+is)\s+(?:the|our|a|an)\s+(?:[\w-]+\s+){0,2}?(?:rule|convention|policy|standard|requirement|invariant|contract)(?:\s+here)?|(?:please\s+)?(?:keep\s+(?:that|this)\s+in\s+mind|remember\s+(?:that|this)))\s*[.!]*$`)

// cutTrailingFlag removes a trailing flag from s and returns the flag as typed.
func cutTrailingFlag(s string) (rest, flag string, ok bool) {
	m := trailingFlag.FindStringSubmatchIndex(s)
	if m == nil || len(strings.Fields(s[:m[0]])) < 3 {
		return s, "", false
	}
	return s[:m[0]], s[m[2]:m[3]], true
}

func firstMarker(have, found string) string {
	if have != "" {
		return have
	}
	return found
}

// timeLead is a date that opens a statement once relative dates are absolute
// ("On 2026-11-17 we migrated …"); classification looks past it.
var timeLead = lazyre.New(`(?i)^(?:(?:on|in|since|as\s+of|until)\s+(?:the\s+week\s+of\s+)?\d{4}(?:-\d{2}){0,2}|\d{4}-\d{2}-\d{2}|recently|lately|finally|now|today)\b[\s,]*`)

func stripTimeLead(s string) string {
	return timeLead.ReplaceAllString(s, "")
}
