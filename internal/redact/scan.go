package redact

import "strings"

// matches returns the rule's submatch index slices in s. A rule with literals runs its regular
// expression only on the lines (or words) that contain one of them: a transcript is mostly lines without
// any, and a regular expression that cannot start with a fixed string would otherwise walk every
// byte. lower is s in ASCII lower case, with the same byte offsets, for case-folded literals.
func (ru rule) matches(s, lower string) [][]int {
	if ru.find != nil {
		return ru.find(s)
	}
	if len(ru.literals) == 0 {
		return ru.re.FindAllStringSubmatchIndex(s, -1)
	}
	text := s
	if ru.fold {
		text = lower
	}
	var out [][]int
	next := newLiteralScan(text, ru.literals)
	for off := 0; ; {
		p := next.from(off)
		if p < 0 {
			return out
		}
		if ru.near != nil && !ru.near(s, p) {
			off = p + 1
			continue
		}
		start, end := ru.window(s, off, p)
		for _, m := range ru.re.FindAllStringSubmatchIndex(s[start:end], -1) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += start
				}
			}
			out = append(out, m)
		}
		off = end
	}
}

// window returns the stretch of s around position p that a match through p can cover: its line,
// or for a word rule the run of non-space characters (never reaching back before off).
func (ru rule) window(s string, off, p int) (start, end int) {
	if !ru.word {
		start = strings.LastIndexByte(s[off:p], '\n') + 1 + off
		end = len(s)
		if i := strings.IndexByte(s[p:], '\n'); i >= 0 {
			end = p + i
		}
		return start, end
	}
	start, end = p, p
	for start > off && !isSpace(s[start-1]) {
		start--
	}
	for end < len(s) && !isSpace(s[end]) {
		end++
	}
	return start, end
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// literalScan finds the next occurrence of any of several literals without rescanning: each
// literal's next position is remembered until the search passes it.
type literalScan struct {
	text     string
	literals []string
	next     []int // next position of each literal, -1 when there is none left
}

func newLiteralScan(text string, literals []string) *literalScan {
	next := make([]int, len(literals))
	for i := range next {
		next[i] = -2 // not searched yet
	}
	return &literalScan{text: text, literals: literals, next: next}
}

// from returns the first position >= off where a literal starts, or -1.
func (l *literalScan) from(off int) int {
	best := -1
	for i, lit := range l.literals {
		if l.next[i] == -1 {
			continue
		}
		if l.next[i] < off {
			j := strings.Index(l.text[off:], lit)
			if j < 0 {
				l.next[i] = -1
				continue
			}
			l.next[i] = off + j
		}
		if best < 0 || l.next[i] < best {
			best = l.next[i]
		}
	}
	return best
}

// asciiLower lower-cases ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
