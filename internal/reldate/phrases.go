package reldate

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// rule is one kind of relative phrase: a pattern and how its submatches resolve against the day
// the statement was made.
type rule struct {
	re      *lazyre.Regexp
	ownPrep bool // the phrase starts with its own preposition ("on Monday")
	resolve func(groups []string, day time.Time, future bool) (when, bool)
}

const (
	weekdayRE = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	partRE    = `(?:\s+(?:morning|afternoon|evening|night))?`
	countRE   = `(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:a\s+)?couple\s+of)`
)

func phrase(pattern string) *lazyre.Regexp { return lazyre.New(`(?i)\b` + pattern + `\b`) }

// rules lists every phrase Rewrite knows. Where two match at the same place the longer wins.
var rules = []rule{
	{re: phrase(`(?:the\s+)?day\s+before\s+yesterday`), resolve: fixed(-2)},
	{re: phrase(`(?:the\s+)?day\s+after\s+tomorrow`), resolve: fixed(2)},
	{re: phrase(`(?:(?:earlier|later)\s+)?today|this\s+(?:morning|afternoon|evening)|tonight`), resolve: fixed(0)},
	{re: phrase(`yesterday` + partRE + `|last\s+night`), resolve: fixed(-1)},
	{re: phrase(`tomorrow` + partRE), resolve: fixed(1)},
	{re: phrase(`last\s+` + weekdayRE), resolve: func(g []string, day time.Time, _ bool) (when, bool) {
		return weekdayBefore(day, weekdays[strings.ToLower(g[1])]), true
	}},
	{re: phrase(`next\s+` + weekdayRE), resolve: func(g []string, day time.Time, _ bool) (when, bool) {
		return weekdayAfter(day, weekdays[strings.ToLower(g[1])]), true
	}},
	{re: phrase(`on\s+` + weekdayRE), ownPrep: true, resolve: func(g []string, day time.Time, future bool) (when, bool) {
		if future {
			return weekdayAfter(day, weekdays[strings.ToLower(g[1])]), true
		}
		return weekdayBefore(day, weekdays[strings.ToLower(g[1])]), true
	}},
	{re: phrase(countRE + `\s+(day|week|month|year)s?\s+ago`), resolve: func(g []string, day time.Time, _ bool) (when, bool) {
		n, ok := count(g[1])
		if !ok {
			return when{}, false
		}
		switch strings.ToLower(g[2]) {
		case "day":
			return days(day, -n), true
		case "week":
			return days(day, -7*n), true
		case "month":
			return monthOf(day, -n), true
		}
		return yearOf(day, -n), true
	}},
	{re: phrase(`(last|this|next|(?:earlier|later)\s+this)\s+(week|month|year)`), resolve: func(g []string, day time.Time, _ bool) (when, bool) {
		n := map[string]int{"last": -1, "next": 1}[strings.ToLower(g[1])]
		switch strings.ToLower(g[2]) {
		case "week":
			return weekOf(day, n), true
		case "month":
			return monthOf(day, n), true
		}
		return yearOf(day, n), true
	}},
}

func fixed(n int) func([]string, time.Time, bool) (when, bool) {
	return func(_ []string, day time.Time, _ bool) (when, bool) { return days(day, n), true }
}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}

var countWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}

func count(s string) (int, bool) {
	s = strings.ToLower(s)
	if n, ok := countWords[s]; ok {
		return n, true
	}
	if strings.HasSuffix(s, "of") { // "a couple of", "couple of"
		return 2, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

// nextPhrase finds the first phrase in text[pos:end] that stands as words of its own and resolves.
func nextPhrase(text string, pos, end int, day time.Time) (match, bool) {
	for pos < end {
		best, groups := -1, []string(nil)
		var bestLoc []int
		for i, r := range rules {
			loc := r.re.FindStringSubmatchIndex(text[pos:end])
			if loc == nil {
				continue
			}
			if bestLoc == nil || loc[0] < bestLoc[0] || loc[0] == bestLoc[0] && loc[1] > bestLoc[1] {
				best, bestLoc = i, loc
			}
		}
		if bestLoc == nil {
			return match{}, false
		}
		start, stop := pos+bestLoc[0], pos+bestLoc[1]
		groups = submatches(text[pos:end], bestLoc)
		r := rules[best]
		if standsAlone(text, start, stop) {
			if w, ok := r.resolve(groups, day, futureSentence(text, start, stop)); ok {
				m := match{start: start, end: stop, when: w}
				if r.ownPrep {
					m.ownPrep = text[start : start+2]
				}
				return m, true
			}
		}
		_, size := utf8.DecodeRuneInString(text[start:])
		pos = start + size
	}
	return match{}, false
}

func submatches(s string, loc []int) []string {
	groups := make([]string, len(loc)/2)
	for i := range groups {
		if loc[2*i] >= 0 {
			groups[i] = s[loc[2*i]:loc[2*i+1]]
		}
	}
	return groups
}

// standsAlone reports whether text[start:end] is prose rather than part of an identifier, a
// path, a URL or a file name ("today_report.py", "todayCount", "/tmp/today", "today.txt").
func standsAlone(text string, start, end int) bool {
	if before, _ := utf8.DecodeLastRuneInString(text[:start]); start > 0 && joins(before) {
		return false
	}
	if end == len(text) {
		return true
	}
	after, size := utf8.DecodeRuneInString(text[end:])
	if wordRune(after) || strings.ContainsRune("`_([{@=", after) {
		return false
	}
	if strings.ContainsRune(".-/\\:#+~", after) {
		next, _ := utf8.DecodeRuneInString(text[end+size:])
		return !wordRune(next)
	}
	return true
}

// joins reports whether r, just before a phrase, makes it part of a larger token.
func joins(r rune) bool {
	return wordRune(r) || strings.ContainsRune("`_-./\\:@=#$%&~+<", r)
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

var (
	futureCue = lazyre.New(`(?i)\b(will|shall|going\s+to|gonna|plan(?:s|ned)?\s+to|planning|scheduled|due|upcoming|until|next)\b|['’]ll\b`)
	// pastCue is a verb in the past tense; "[^e]ed" keeps "need", "seed" and "proceed" out.
	pastCue = lazyre.New(`(?i)\b(was|were|did|had|went|broke|made|found|saw|ran|wrote|took|got|began|told|said|came|left|sent|built|lost|gave|chose|\w{2,}[^e\s]ed)\b`)
)

// futureSentence reports whether the sentence around text[start:end] speaks of the future, which
// decides whether a bare "on Monday" is the coming Monday or the last one. A sentence in the past
// tense means the last one; one in the present ("the release is on Friday") the coming one.
func futureSentence(text string, start, end int) bool {
	from := strings.LastIndexAny(text[:start], ".!?\n") + 1
	to := strings.IndexAny(text[end:], ".!?\n")
	if to < 0 {
		to = len(text)
	} else {
		to += end
	}
	sentence := text[from:to]
	return futureCue.MatchString(sentence) || !pastCue.MatchString(sentence)
}
