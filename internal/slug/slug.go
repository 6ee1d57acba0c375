// Package slug holds the naming rules shared by the store and the consolidators: a memory's name
// is its file stem, a slug [a-z0-9]+(-[a-z0-9]+)* of at most 64 characters.
package slug

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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

// Project turns an absolute project path into the name of the folder Claude Code keeps the
// project's sessions and memory in (under ~/.claude/projects), as Claude Code itself computes it:
// every UTF-16 code unit outside [A-Za-z0-9] becomes '-' ("/home/ana/café" → "-home-ana-caf-", an
// emoji two dashes), and a name longer than ClaudeMaxFolder keeps that many and gains '-' and the
// base-36 hash of the path. A Windows path's drive letter is upper case, as Claude Code writes it.
func Project(path string) string {
	path = upperDrive(path)
	units := utf16.Encode([]rune(path))
	b := make([]byte, len(units))
	for i, u := range units {
		if u < utf8.RuneSelf && isAlnum(byte(u)) {
			b[i] = byte(u)
		} else {
			b[i] = '-'
		}
	}
	if len(b) <= ClaudeMaxFolder {
		return string(b)
	}
	return string(b[:ClaudeMaxFolder]) + "-" + strconv.FormatInt(abs(claudeHash(units)), 36)
}

// ClaudeMaxFolder is the longest project folder name Claude Code writes before it cuts the name
// and appends a hash.
const ClaudeMaxFolder = 200

// claudeHash is the 32-bit string hash Claude Code appends to a long folder name: h = h*31 + unit
// over the path's UTF-16 code units, wrapping as a signed 32-bit integer.
func claudeHash(units []uint16) int32 {
	var h int32
	for _, u := range units {
		h = h<<5 - h + int32(u)
	}
	return h
}

// abs is |h| as JavaScript's Math.abs gives it: -2^31 stays 2^31.
func abs(h int32) int64 {
	if h < 0 {
		return -int64(h)
	}
	return int64(h)
}

// upperDrive upper-cases the drive letter of a Windows path ("c:\src" → "C:\src").
func upperDrive(path string) string {
	if len(path) >= 2 && path[1] == ':' && path[0] >= 'a' && path[0] <= 'z' {
		return string(path[0]-'a'+'A') + path[1:]
	}
	return path
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// StateName is the name of dreamd's own folder or file for a path (a store's state folder, a
// team repository's clone): every byte outside [A-Za-z0-9] becomes '-', as dreamd always named
// them, so existing state keeps its name; a name longer than MaxStateName is cut and gains '-'
// and a hash of the whole path, so it stays a valid file name (at most 255 bytes) however deep
// the path.
func StateName(path string) string {
	b := []byte(path)
	for i, c := range b {
		if !isAlnum(c) {
			b[i] = '-'
		}
	}
	if len(b) <= MaxStateName {
		return string(b)
	}
	sum := sha256.Sum256([]byte(path))
	return string(b[:MaxStateName-17]) + "-" + hex.EncodeToString(sum[:8])
}

// MaxStateName is the longest name StateName gives, well under the 255 bytes file systems allow,
// leaving room for a suffix such as ".lock".
const MaxStateName = 200
