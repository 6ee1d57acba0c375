package eval

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// normalize is the form texts are compared in: lower case, markdown emphasis and code marks
// dropped, typographic quotes made plain, every run of spaces one space, and every run of
// whitespace that holds a line break one "\n" (kept, because a line ends a statement).
func normalize(s string) string {
	s = strings.ToLower(s)
	s = quotes.Replace(s)
	var b strings.Builder
	space, newline := false, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			newline = newline || r == '\n'
			continue
		}
		if space && b.Len() > 0 {
			if newline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		space, newline = false, false
		b.WriteRune(r)
	}
	return b.String()
}

var quotes = strings.NewReplacer("`", "", "**", "", "\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`)

// alternatives splits an expectation's text on " | ": any one of the parts counts as the text
// (models say "Postgres" or "PostgreSQL").
func alternatives(s string) []string {
	parts := strings.Split(s, " | ")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// occurrences returns where needle (normalized) occurs in text (normalized). An occurrence must
// start at a word start when needle starts with a letter or digit, so "npm" is not found in
// "pnpm"; it may end inside a word, so "postgres" is found in "postgresql". A script written
// without spaces between words (Chinese, Japanese's kana, Thai) has no word start to tell: there
// "源代码" is found in "不要去改源代码的文件". A line break in text matches a space in needle.
func occurrences(text, needle string) []int {
	var at []int
	if needle == "" {
		return nil
	}
	first, _ := utf8.DecodeRuneInString(needle)
	wordStart := isWord(first) && !unspaced(first)
	for i := 0; i+len(needle) <= len(text); i++ {
		if !equalFold(text[i:i+len(needle)], needle) {
			continue
		}
		if wordStart && i > 0 {
			if prev, _ := utf8.DecodeLastRuneInString(text[:i]); isWord(prev) {
				continue
			}
		}
		at = append(at, i)
	}
	return at
}

// equalFold compares a stretch of normalized text with a normalized needle, a line break
// standing for a space.
func equalFold(text, needle string) bool {
	for i := 0; i < len(needle); i++ {
		if text[i] != needle[i] && !(text[i] == '\n' && needle[i] == ' ') {
			return false
		}
	}
	return true
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// unspaced reports whether r is of a script written without spaces between words.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai)
}

// mentions reports whether text mentions any alternative of want; both are normalized here.
func mentions(text, want string) bool {
	text = normalize(text)
	for _, alt := range alternatives(want) {
		if len(occurrences(text, normalize(alt))) > 0 {
			return true
		}
	}
	return false
}

// Historical context, for not_current. A statement ends at a line break or at ". ", "; ", "! ",
// "? "; cues only count within the statement of the term.
var (
	// changeCue, before the term, marks it as what was replaced or left behind: "migrated from
	// MySQL", "formerly Jenkins", "the legacy npm scripts".
	changeCue = lazyre.New(`\b(?:from|replaced|replacing|replaces|superseded|previously|formerly|used to|until|legacy|old|outdated|obsolete|deprecated|dropped|removed|retired|abandoned|migrated off|moved off)\b`)
	// changeRedirect, between a change cue and the term, points the cue at the new thing: in
	// "replaced MySQL with Postgres", "from MySQL to Postgres" and "formerly Jenkins, now GitHub
	// Actions", the second name is current.
	changeRedirect = lazyre.New(`\b(?:to|with|by|for|onto|into|now|but|in favou?r of)\b`)
	// negationCue, before the term, says it is not what is used: "use pnpm instead of npm", "we
	// no longer use Jenkins", "do not fall back to npm", "never use float64".
	negationCue = lazyre.New(`\b(?:instead of|rather than|no longer|not|never|avoid|stop using|stopped using)\b|n't\b`)
	// negationRedirect, between a negation cue and the term, turns to what is used: "not MySQL
	// but Postgres", "no longer MySQL, we now use Postgres".
	negationRedirect = lazyre.New(`\b(?:but|now|instead)\b`)
	// cueAfter starts within the three words after the term: "MySQL was replaced by Postgres",
	// "Jenkins, which we no longer use", "treat logrus as outdated", "npm (old)", "MySQL → Postgres".
	cueAfter = lazyre.New(`^(?:\W*\w+){0,3}?\W*(?:\b(?:was replaced|were replaced|has been replaced|is no longer|are no longer|no longer|is deprecated|was deprecated|deprecated|outdated|obsolete|was removed|was dropped|was retired|is retired|is gone|is not used|isn't used|used to be)\b|\((?:old|previously|formerly)\)|->|→)`)
)

const (
	historyWindow = 60 // characters before the term where a cue may end
	afterWindow   = 40 // characters after the term where a cue may start
)

// historical reports whether the term at text[start:end] (normalized text) is presented as
// history rather than as current. Within the term's statement, either
//   - a change cue or a negation cue ends at most historyWindow characters before the term, with
//     no redirect word of its kind between the cue and the term, or
//   - a cue of cueAfter starts within the three words after the term.
func historical(text string, start, end int) bool {
	before := statementTail(text[windowStart(text, start-historyWindow):start])
	for _, c := range []struct{ cue, redirect *lazyre.Regexp }{{changeCue, changeRedirect}, {negationCue, negationRedirect}} {
		for _, loc := range c.cue.FindAllStringIndex(before, -1) {
			if !c.redirect.MatchString(before[loc[1]:]) {
				return true
			}
		}
	}
	after := statementHead(text[end:windowEnd(text, end+afterWindow)])
	return cueAfter.MatchString(after)
}

// presentsAsCurrent reports whether text mentions any alternative of term outside a historical
// context, and returns the stretch of text around the first such mention.
func presentsAsCurrent(text, term string) (bool, string) {
	text = normalize(text)
	for _, alt := range alternatives(term) {
		needle := normalize(alt)
		for _, at := range occurrences(text, needle) {
			if !historical(text, at, at+len(needle)) {
				return true, excerpt(text, at, at+len(needle))
			}
		}
	}
	return false, ""
}

var statementEnd = lazyre.New(`\n|[.;!?] `)

// statementTail is the part of s after its last statement end.
func statementTail(s string) string {
	locs := statementEnd.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return s
	}
	return s[locs[len(locs)-1][1]:]
}

// statementHead is the part of s before its first statement end.
func statementHead(s string) string {
	if loc := statementEnd.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

// windowStart moves i forward to a rune boundary, at least 0.
func windowStart(s string, i int) int {
	i = max(i, 0)
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// windowEnd moves i back to a rune boundary, at most len(s).
func windowEnd(s string, i int) int {
	i = min(i, len(s))
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// excerpt is the text around s[start:end], for a failure message.
func excerpt(s string, start, end int) string {
	from, to := windowStart(s, start-historyWindow), windowEnd(s, end+afterWindow)
	out := strings.ReplaceAll(s[from:to], "\n", " ")
	if from > 0 {
		out = "…" + out
	}
	if to < len(s) {
		out += "…"
	}
	return out
}
