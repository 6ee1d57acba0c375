package redact

import (
	"regexp"
	"strings"
)

// passFileRules find secrets by the shape of the password files they are pasted from: a
// PostgreSQL .pgpass, an htpasswd or shadow file.
func passFileRules() []rule {
	return []rule{
		{kind: "pgpass-password", find: findPgpass},
		{
			// user:hash of an htpasswd (bcrypt, apr1, {SHA}) or shadow (crypt $1$, $5$, $6$) line: a
			// hash of a password is cracked offline, so it is as secret as the password.
			kind: "password-hash",
			re: regexp.MustCompile(`[A-Za-z0-9._@-]:(\$2[aby]\$[0-9]{2}\$[./A-Za-z0-9]{53}|\$apr1\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}` +
				`|\{SHA\}[A-Za-z0-9+/]{27}=|\$[156]\$(?:rounds=[0-9]+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86})`),
			literals: []string{":$2y$", ":$2a$", ":$2b$", ":$apr1$", ":{SHA}", ":$1$", ":$5$", ":$6$"},
			word:     true,
			// Not varied: a salt's dots ("r31.....") read as an ellipsis to notPlaceholder, and the
			// fixed lengths already keep documentation's "$2y$10$..." out.
			keep: func(v string) bool { return distinct(v) >= 8 },
		},
	}
}

// findPgpass returns the password of every line of s shaped like a .pgpass entry:
// host:port:database:user:password, the port a number or *, no field blank or holding a space
// (a compiler's "file.go:12:5: message" has one).
func findPgpass(s string) [][]int {
	if strings.Count(s, ":") < 4 {
		return nil
	}
	var out [][]int
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += off
		}
		if span := pgpassPassword(s, off, end); span != nil {
			out = append(out, span)
		}
		off = end + 1
	}
	return out
}

// pgpassPassword is the span of the password of the .pgpass line s[start:end], or nil.
func pgpassPassword(s string, start, end int) []int {
	for start < end && (s[start] == ' ' || s[start] == '\t') {
		start++
	}
	for end > start && (s[end-1] == ' ' || s[end-1] == '\t' || s[end-1] == '\r') {
		end--
	}
	line := s[start:end]
	if strings.Count(line, ":") < 4 || strings.ContainsAny(line, " \t") {
		return nil
	}
	// The first four fields; the rest of the line is the password (in which ':' is escaped).
	fields := make([]string, 0, 4)
	rest := line
	for len(fields) < 4 {
		i := unescapedColon(rest)
		if i <= 0 {
			return nil
		}
		fields = append(fields, rest[:i])
		rest = rest[i+1:]
	}
	host, port := fields[0], fields[1]
	if !hostLike(host) || !(port == "*" || len(port) <= 5 && allDigits(port)) || rest == "" || unescapedColon(rest) >= 0 {
		return nil
	}
	// A cache key's fields (user:1000:session:abc:body) are words or numbers; a password is made
	// up (a digit, mixed case or a symbol) and so is not a plain word.
	if allDigits(fields[2]) || allDigits(fields[3]) || allDigits(strings.Trim(rest, ".")) || !madeUp(rest) {
		return nil
	}
	at := end - len(rest)
	return []int{at, end}
}

// unescapedColon is the index of the first ':' of s not escaped by a backslash, or -1.
func unescapedColon(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ':':
			return i
		}
	}
	return -1
}

// hostLike holds for a host name, an address or *.
func hostLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && !strings.ContainsRune(".-_*", rune(c)) {
			return false
		}
	}
	return s != ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// distinct is the number of different bytes in s.
func distinct(s string) int {
	var seen [256]bool
	n := 0
	for i := 0; i < len(s); i++ {
		if !seen[s[i]] {
			seen[s[i]] = true
			n++
		}
	}
	return n
}
