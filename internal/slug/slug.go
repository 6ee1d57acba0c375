// Package slug holds the naming rules shared by the store and the consolidators: a memory's name
// is its file stem, a slug [a-z0-9]+(-[a-z0-9]+)* of at most 64 characters.
package slug

import (
	"regexp"
	"strings"
)

// MaxLen is the longest valid memory name.
const MaxLen = 64

var valid = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Valid reports whether name is a valid memory name.
func Valid(name string) bool {
	return len(name) <= MaxLen && valid.MatchString(name)
}

// Make turns any text into a valid name, cut at a word boundary within MaxLen.
// It returns "" when the text holds no letter or digit.
func Make(text string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(text) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			hyphen = false
		default:
			hyphen = true
		}
	}
	return Cut(b.String(), MaxLen)
}

// Cut shortens a slug to at most max bytes, at a hyphen where it can, so it stays a slug.
func Cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = s[:max]
	if i := strings.LastIndexByte(s, '-'); i > 0 {
		s = s[:i]
	}
	return strings.Trim(s, "-")
}

// Project turns an absolute project path into Claude Code's project directory name: every
// character outside [A-Za-z0-9] becomes '-' ("/home/ana/shop" → "-home-ana-shop").
func Project(path string) string {
	b := []byte(path)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}
