package redact

import (
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// structuredRules find secrets by the file they are pasted from: a .env, a Kubernetes Secret, a
// password file.
func structuredRules() []rule {
	return append([]rule{
		{kind: "kubernetes-secret", find: findKubernetesSecret, literals: []string{"Secret"}},
		{kind: "env-secret", find: findEnvSecrets},
	}, passFileRules()...)
}

// puttyPrivate is the private half of a PuTTY key file (.ppk): "Private-Lines: N", N lines of
// base64 (also with JSON-escaped newlines), then its MAC. Group 1 is everything after the count.
var puttyPrivate = lazyre.New(`Private-Lines:[ \t]*[0-9]+[ \t]*((?:(?:\r?\n|\\r?\\n)[ \t]*[A-Za-z0-9+/=]+[ \t]*)+(?:(?:\r?\n|\\r?\\n)Private-(?:MAC|Hash):[ \t]*[0-9A-Fa-f]+)?)`)

// findPuTTY returns the private lines of every PuTTY key in s.
func findPuTTY(s string) [][]int {
	var out [][]int
	for off := 0; ; {
		i := strings.Index(s[off:], "Private-Lines:")
		if i < 0 {
			return out
		}
		at := off + i
		m := puttyPrivate.FindStringSubmatchIndex(s[at:])
		if m == nil || m[0] != 0 {
			off = at + 1
			continue
		}
		for k := range m {
			m[k] += at
		}
		out = append(out, m)
		off = m[1]
	}
}

// secretKind is a Kubernetes Secret's kind line, in YAML or JSON.
var secretKind = lazyre.New(`(?m)^[ \t]*"?kind"?[ \t]*:[ \t]*"?Secret"?[ \t]*,?[ \t]*\r?$`)

// findKubernetesSecret returns the values under data: and stringData: of each Kubernetes Secret
// in s: every one of them is a secret, whatever its key is called.
func findKubernetesSecret(s string) [][]int {
	if !strings.Contains(s, "Secret") {
		return nil
	}
	var out [][]int
	for _, loc := range secretKind.FindAllStringIndex(s, -1) {
		// The manifest runs from the previous document separator to the next one.
		start := strings.LastIndex(s[:loc[0]], "\n---")
		if start < 0 {
			start = 0
		}
		end := len(s)
		if i := strings.Index(s[loc[1]:], "\n---"); i >= 0 {
			end = loc[1] + i
		}
		out = append(out, secretData(s, start, end)...)
	}
	return out
}

// secretData returns the values of the data: and stringData: maps within s[start:end].
func secretData(s string, start, end int) [][]int {
	var out [][]int
	lines := strings.SplitAfter(s[start:end], "\n")
	pos := start
	inData, dataIndent := false, 0
	for _, line := range lines {
		lineStart := pos
		pos += len(line)
		body := strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimLeft(body, " \t")
		indent := len(body) - len(trimmed)
		if trimmed == "" {
			continue
		}
		if inData && indent <= dataIndent {
			inData = false
		}
		key, value, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		key = strings.Trim(key, `"`)
		if !inData {
			if (key == "data" || key == "stringData") && strings.Trim(strings.TrimSpace(value), "{") == "" {
				inData, dataIndent = true, indent
			}
			continue
		}
		v := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), ","))
		v = strings.Trim(v, `"'`)
		if v == "" || v == "|" || v == ">" || !notPlaceholder(v) {
			continue
		}
		colon := lineStart + indent + strings.IndexByte(trimmed, ':') + 1
		at := colon + strings.Index(s[colon:lineStart+len(body)], v)
		out = append(out, []int{at, at + len(v)})
	}
	return out
}

// secretSegments are the parts of a variable's name that say its value is a credential
// (SECRET_KEY_BASE, JWT_SECRET, SENDGRID_API_KEY, TWILIO_AUTH_TOKEN, DB_PASS).
var secretSegments = map[string]bool{
	"KEY": true, "SECRET": true, "TOKEN": true, "PASSWORD": true, "PASSWD": true, "PASS": true, "PWD": true,
	"AUTH": true, "CREDENTIAL": true, "CREDENTIALS": true, "APIKEY": true, "SALT": true, "PASSPHRASE": true,
	"PRIVATE": true, "SIGNING": true, "DSN": true,
}

// notSecretSegments end a name that is about a credential without holding it (a key's id, file,
// length, time to live).
var notSecretSegments = map[string]bool{
	"ID": true, "IDS": true, "FILE": true, "PATH": true, "DIR": true, "URL": true, "URI": true, "NAME": true, "TYPE": true,
	"LENGTH": true, "LEN": true, "TTL": true, "EXPIRY": true, "EXPIRES": true, "IN": true, "HEADER": true, "PREFIX": true,
	"ALGORITHM": true, "ALG": true, "REGION": true, "VERSION": true, "ENABLED": true, "COUNT": true, "SIZE": true,
	"LIMIT": true, "MAX": true, "MIN": true, "FIELD": true, "ENV": true, "VAR": true, "HOST": true, "PORT": true,
	"USER": true, "USERNAME": true, "EMAIL": true, "MODE": true, "PROVIDER": true, "ISSUER": true, "AUDIENCE": true,
	"STRATEGY": true, "METHOD": true, "FORMAT": true, "LOCATION": true, "STORE": true, "TIMEOUT": true,
	"BYTES": true, "BITS": true, "POLICY": true, "SCOPE": true, "SCOPES": true, "KIND": true, "HASH": true,
}

// findEnvSecrets returns the values of the lines of a pasted .env (or a YAML or JSON config)
// whose key is a variable named like a credential: SECRET_KEY_BASE=…, "jwt_secret": "…",
// export TWILIO_AUTH_TOKEN=…. The name must be in capitals or joined with underscores, so that
// code's `Key: value` stays; the value must look generated.
func findEnvSecrets(s string) [][]int {
	var out [][]int
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += off
		}
		out = append(out, lineSecrets(s, off, end)...)
		off = end + 1
	}
	return out
}

// lineSecrets returns the values assigned on the line s[start:end] to names like credentials: at
// its start (a .env, a YAML file) and after a blank, a comma, a brace or a parenthesis (`docker
// run -e SECRET_KEY_BASE=…`, `{"SECRET_KEY_BASE": "…"}`).
func lineSecrets(s string, start, end int) [][]int {
	if strings.IndexByte(s[start:end], '=') < 0 && strings.IndexByte(s[start:end], ':') < 0 {
		return nil
	}
	var out [][]int
	for k := start; k < end; k++ {
		if k > start && !strings.ContainsRune("{,( \t;", rune(s[k-1])) {
			continue
		}
		if span := envSecret(s, k, end); span != nil {
			out = append(out, span)
			k = span[1]
		}
	}
	return out
}

// envSecret is the span of the value assigned at s[start:] (within the line ending at end), or nil.
func envSecret(s string, start, end int) []int {
	i := start
	for i < end && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if strings.HasPrefix(s[i:end], "export ") {
		i += len("export ")
	}
	if i < end && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	nameStart := i
	for i < end && (isWordByte(s[i]) || s[i] == '.' || s[i] == '-') {
		i++
	}
	name := s[nameStart:i]
	if i < end && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < end && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= end || s[i] != '=' && s[i] != ':' || i+1 < end && (s[i+1] == '=' || s[i+1] == ':') || !secretName(name) {
		return nil
	}
	i++
	for i < end && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	vStart, vEnd := i, end
	if i < end && (s[i] == '"' || s[i] == '\'') {
		q := s[i]
		vStart = i + 1
		j := strings.IndexByte(s[vStart:end], q)
		if j < 0 {
			return nil
		}
		vEnd = vStart + j
	} else {
		j := vStart
		for j < end && s[j] != ' ' && s[j] != '\t' && s[j] != '\r' && s[j] != ',' && s[j] != '#' {
			j++
		}
		vEnd = j
	}
	v := s[vStart:vEnd]
	if !credentialLike(v) || pathLike(v) || strings.ContainsAny(v, " \t") || isReference(v) {
		return nil
	}
	return []int{vStart, vEnd}
}

// secretName reports a variable named like a credential: in capitals or snake case, with a
// segment from secretSegments and not ending in one of notSecretSegments.
func secretName(name string) bool {
	if len(name) < 3 || len(name) > 80 || !strings.ContainsAny(name, "_.-") {
		return false // one word alone is for the assignment rules (see below)
	}
	upper := strings.ToUpper(name)
	if upper != name && !strings.Contains(name, "_") {
		return false // code's Key:, apiKey = …: the assignment rules judge those
	}
	segs := strings.FieldsFunc(upper, func(r rune) bool { return r == '_' || r == '.' || r == '-' })
	// One word alone is for the assignment rules, which know "PASS: TestX" from "PASSWORD=…".
	if len(segs) < 2 || notSecretSegments[segs[len(segs)-1]] {
		return false
	}
	for _, seg := range segs {
		if secretSegments[seg] {
			return true
		}
	}
	return false
}
