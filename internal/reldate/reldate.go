// Package reldate makes relative dates absolute: a statement made on 2026-11-18 that says
// "yesterday" means 2026-11-17, and a memory must say so, because it is read long after.
//
// Rewrite is deterministic and idempotent, leaves text without relative dates byte-identical and
// never touches code spans or identifiers.
package reldate

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Rewrite returns text with every relative date phrase replaced by the absolute date it means
// when said at ref ("we migrated yesterday" → "we migrated on 2026-11-17"). Only ref's calendar
// date (in ref's location) matters.
func Rewrite(text string, ref time.Time) string {
	if !mayHoldPhrase(text) {
		return text
	}
	day := civil(ref)
	var out strings.Builder
	last := 0 // end of what has been copied to out
	changed := false
	for _, r := range proseRanges(text) {
		for pos := r[0]; pos < r[1]; {
			m, ok := nextPhrase(text, pos, r[1], day)
			if !ok {
				break
			}
			out.WriteString(text[last:m.start])
			out.WriteString(m.render(text))
			last, pos, changed = m.end, m.end, true
		}
	}
	if !changed {
		return text
	}
	out.WriteString(text[last:])
	return out.String()
}

// anchorWords are the words of which every phrase of phrases.go holds at least one (yesterday,
// today, tonight, tomorrow, this morning…, the weekdays, "… ago", "… week|month|year"). Most prose
// holds none, and then Rewrite does no regexp work at all.
var anchorWords = []string{"yesterday", "today", "tonight", "tomorrow", "ago", "week", "month", "year", "night",
	"morning", "afternoon", "evening",
	"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// mayHoldPhrase is a cheap filter: false when text holds no anchor word, in any case. It looks at
// each byte once (every turn of every transcript read passes through it): a table of the anchor
// words' first two letters passes over nearly every position with one lookup, and only at a pair
// that begins an anchor word are those words compared. Non-ASCII letters that fold into ASCII
// ones under (?i) (K, the Kelvin sign; ſ, the long s) make it say true, so the phrases decide.
func mayHoldPhrase(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 0x80 {
			if strings.HasPrefix(text[i:], "\u212a") || strings.HasPrefix(text[i:], "\u017f") {
				return true
			}
			continue
		}
		if i+1 == len(text) {
			break // every anchor word is longer than one byte
		}
		k := uint16(lowerASCII(c))<<8 | uint16(lowerASCII(text[i+1]))
		if anchorPairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, w := range anchorsByFirst[lowerASCII(c)] {
			if len(text)-i >= len(w) && strings.EqualFold(text[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// anchorsByFirst are the anchor words by their first letter.
var anchorsByFirst = func() (by [256][]string) {
	for _, w := range anchorWords {
		by[w[0]] = append(by[w[0]], w)
	}
	return by
}()

// anchorPairs holds the first two letters of every anchor word, a bit per pair of bytes.
var anchorPairs = func() (pairs [1 << 16 / 64]uint64) {
	for _, w := range anchorWords {
		k := uint16(w[0])<<8 | uint16(w[1])
		pairs[k/64] |= 1 << (k % 64)
	}
	return pairs
}()

// civil is ref's calendar date at noon UTC, so that day arithmetic never meets a DST edge.
func civil(ref time.Time) time.Time {
	y, m, d := ref.Date()
	return time.Date(y, m, d, 12, 0, 0, 0, time.UTC)
}

// match is one phrase found in text and what it resolves to.
type match struct {
	start, end int
	when       when
	ownPrep    string // the phrase's own preposition ("on" of "on Monday"), kept as typed
}

// render is the replacement text: the absolute date, with a preposition when the phrase was a
// bare time adverb, so that the sentence stays readable.
func (m match) render(text string) string {
	phrase := text[m.start:m.end]
	if m.ownPrep != "" {
		return m.ownPrep + " " + m.when.String()
	}
	s := m.when.String()
	if needsPrep(text, m.start, m.end) {
		s = m.when.prep() + " " + s
	}
	if r, _ := utf8.DecodeRuneInString(phrase); unicode.IsUpper(r) {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// prepositions that already carry a date ("since yesterday", "as of today").
var prepositions = map[string]bool{
	"on": true, "in": true, "at": true, "since": true, "until": true, "till": true, "til": true,
	"by": true, "before": true, "after": true, "of": true, "for": true, "from": true, "to": true,
	"than": true, "through": true, "thru": true, "during": true, "around": true, "about": true,
	"starting": true, "between": true, "like": true, "as": true,
}

// subjectVerbs follow a date used as a subject ("yesterday was", "today's build").
var subjectVerbs = map[string]bool{"is": true, "was": true, "will": true, "has": true, "had": true}

func needsPrep(text string, start, end int) bool {
	if prepositions[previousWord(text[:start])] {
		return false
	}
	rest := text[end:]
	if strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’s") {
		return false
	}
	return !subjectVerbs[nextWord(rest)]
}

// previousWord is the lower-case word just before the phrase, "" when punctuation or the start of
// the text comes first.
func previousWord(before string) string {
	before = strings.TrimRightFunc(before, unicode.IsSpace)
	i := len(before)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(before[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= size
	}
	return strings.ToLower(before[i:])
}

func nextWord(after string) string {
	after = strings.TrimLeftFunc(after, unicode.IsSpace)
	i := strings.IndexFunc(after, func(r rune) bool { return !unicode.IsLetter(r) })
	if i < 0 {
		i = len(after)
	}
	return strings.ToLower(after[:i])
}
