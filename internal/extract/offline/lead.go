package offline

import (
	"regexp"
	"strings"
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
	re   *regexp.Regexp
	kind leadKind
}{
	{regexp.MustCompile(`(?i)^(?:please\s+)?(?:remember|don't\s+forget|do\s+not\s+forget)(?:\s+that\b|\s*[:,—–-])` + leadEnd), explicit},
	{regexp.MustCompile(`(?i)^(?:please\s+)?(?:note|nb|n\.b\.)(?:\s+that\b|\s*[:,—–-])` + leadEnd), explicit},
	{regexp.MustCompile(`(?i)^(?:fyi|for\s+your\s+information|for\s+the\s+record|just\s+so\s+you\s+know|for\s+future\s+reference|(?:keep|bear)\s+in\s+mind(?:\s+that)?)\b` + leadEnd), explicit},
	{regexp.MustCompile(`(?i)^(?:lesson(?:\s+learned)?|rule|tip|decision|decided)\s*:` + leadEnd), explicit},
	{regexp.MustCompile(`(?i)^(?:from\s+now\s+on|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future|from\s+here\s+on(?:\s+out)?|henceforth|starting\s+(?:now|today)|by\s+default)\b` + leadEnd), future},
	{regexp.MustCompile(`(?i)^(?:(?:no|nope|nah)\s*[,.!—–-]+|actually\b|correction\s*:|to\s+clarify\b|to\s+be\s+clear\b)` + leadEnd), correction},
	{regexp.MustCompile(`(?i)^(?:please|also|and|oh|btw|by\s+the\s+way|ok|okay|alright|so|thanks|thank\s+you|great|cool|perfect|nice|yes|yeah|yep|sure|hi|hello|hey|well|one\s+more\s+thing|again|right|you're\s+right|got\s+it|sorry|oops|my\s+bad|good\s+point|true|i\s+see|understood|fine)\b` + leadEnd), filler},
}

// remindTo is "remember to X": a rule to do X.
var remindTo = regexp.MustCompile(`(?i)^(?:please\s+)?(?:remember|don't\s+forget|do\s+not\s+forget)\s+to\s+`)

// ruleOpener turns "let's always X", "you should never X" into "always X", "never X".
var ruleOpener = regexp.MustCompile(`(?i)^(?:let's|let\s+us|we\s+should|you\s+should|you\s+must|we\s+must|make\s+sure\s+(?:to|you)|be\s+sure\s+to|i\s+want\s+you\s+to|i'd\s+like\s+you\s+to)\s+(always|never)\b`)

// stripLeads removes the openings of s and reports what they said.
func stripLeads(s string) (lead, string) {
	var l lead
	for range 8 {
		if m := remindTo.FindString(s); m != "" {
			l.explicit = true
			l.marker = firstMarker(l.marker, "remember to")
			s = capitalize(s[len(m):])
			continue
		}
		if m := ruleOpener.FindStringSubmatchIndex(s); m != nil {
			s = s[m[2]:]
			continue
		}
		matched := false
		for _, in := range leadIns {
			m := in.re.FindString(s)
			if m == "" {
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

func firstMarker(have, found string) string {
	if have != "" {
		return have
	}
	return found
}

// timeLead is a date that opens a statement once relative dates are absolute
// ("On 2026-11-17 we migrated …"); classification looks past it.
var timeLead = regexp.MustCompile(`(?i)^(?:(?:on|in|since|as\s+of|until)\s+(?:the\s+week\s+of\s+)?\d{4}(?:-\d{2}){0,2}|\d{4}-\d{2}-\d{2}|recently|lately|finally|now|today)\b[\s,]*`)

func stripTimeLead(s string) string {
	return timeLead.ReplaceAllString(s, "")
}
