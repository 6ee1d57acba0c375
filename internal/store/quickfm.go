package store

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// quickFrontMatter reads, without a YAML parser, the front matter dreamd writes and most people
// and agents write: one `key: value` per line, each value empty, a plain scalar of one line, a
// quoted one without escapes, a flow list of those, or (for a key with no value) a block mapping
// of such keys one indentation in, as Claude Code writes `metadata:` then `  type: feedback`.
// ok is false for anything else (comments, blank lines, multi-line or escaped values, anchors,
// tags, nested lists…), which parseFrontMatter hands to yaml.v3. Every value goes through
// frontMatter.set as the node yaml.v3 makes of it, so for any text it accepts it reads what
// yaml.v3 reads (FuzzQuickFrontMatterAgreesWithYAML holds it to that). A store of 10,000 memories
// is read twice as fast: YAML parsing was most of a load.
func quickFrontMatter(text string) (fm *frontMatter, ok bool) {
	fm = &frontMatter{}
	var keys []string
	line := 0
	for off := 0; off < len(text); {
		entry, _, found := strings.Cut(text[off:], "\n")
		if !found {
			return nil, false // parseFrontMatter's text ends its lines; anything else goes the long way
		}
		line++
		key, value, ok := quickKeyLine(entry)
		if !ok || slices.Contains(keys, key) {
			return nil, false
		}
		keys = append(keys, key)
		start := off
		off += len(entry) + 1
		var v *yaml.Node
		if value == "" && strings.HasPrefix(text[off:], " ") {
			// A block mapping one level in: only where dreamd reads it whole (metadata) or keeps it
			// unread (an unknown key).
			if known(key) || key == "sources" || key == "pinned" {
				return nil, false
			}
			m, n, lines, ok := quickNestedMapping(text[off:], line)
			if !ok {
				return nil, false
			}
			v, off, line = m, off+n, line+lines
		} else if v, ok = quickValue(value, line); !ok {
			return nil, false
		}
		if err := fm.set(key, v); err != nil {
			return nil, false // yaml.v3's path says why
		}
		if !known(key) {
			fm.extra = append(fm.extra, extraKey{key: key, text: text[start:off]})
		}
	}
	return fm, true
}

// quickKeyLine splits a line "key: value" or "key:" whose key is a plain word at column 1.
func quickKeyLine(line string) (key, value string, ok bool) {
	key, value, found := strings.Cut(line, ":")
	if !found || !quickKey(key) {
		return "", "", false
	}
	if value == "" {
		return key, "", true
	}
	if value[0] != ' ' {
		return "", "", false
	}
	value = strings.TrimLeft(value, " ")
	if value == "" {
		return "", "", false // trailing blanks: the long way
	}
	return key, value, true
}

// quickKey reports a key of ASCII letters, digits, '_' and '-', starting with a letter.
func quickKey(k string) bool {
	if k == "" || !isASCIILetter(k[0]) {
		return false
	}
	for i := 1; i < len(k); i++ {
		if c := k[i]; !isASCIILetter(c) && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// quickNestedMapping reads the lines of text that make one block mapping indented by the first
// line's leading spaces, each a `key: value` of one scalar. It returns the mapping node, the bytes
// and lines it spans.
func quickNestedMapping(text string, parentLine int) (*yaml.Node, int, int, bool) {
	indent := len(text) - len(strings.TrimLeft(text, " "))
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: parentLine + 1, Column: indent + 1}
	var keys []string
	n, lines := 0, 0
	for n < len(text) && text[n] == ' ' {
		entry, _, found := strings.Cut(text[n:], "\n")
		if !found || len(entry) <= indent || strings.Count(entry[:indent], " ") != indent || entry[indent] == ' ' {
			return nil, 0, 0, false // not exactly one level in
		}
		key, value, ok := quickKeyLine(entry[indent:])
		if !ok || value == "" || slices.Contains(keys, key) {
			return nil, 0, 0, false // an empty value might open another level
		}
		keys = append(keys, key)
		line := parentLine + 1 + lines
		v, ok := quickScalar(value, false, line)
		if !ok {
			return nil, 0, 0, false
		}
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: line, Column: indent + 1}
		m.Content = append(m.Content, k, v)
		n += len(entry) + 1
		lines++
	}
	return m, n, lines, true
}

// quickValue is the node of a key's value: null when empty, a scalar or a flow list.
func quickValue(value string, line int) (*yaml.Node, bool) {
	if value == "" {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: line}, true
	}
	if value[0] == '[' {
		return quickFlowList(value, line)
	}
	return quickScalar(value, false, line)
}

// quickFlowList reads "[a, b]" of scalars that hold no comma or bracket.
func quickFlowList(value string, line int) (*yaml.Node, bool) {
	inner, ok := strings.CutSuffix(value[1:], "]")
	if !ok {
		return nil, false
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line}
	if inner == "" {
		return seq, true
	}
	for item := range strings.SplitSeq(inner, ",") {
		item = strings.TrimLeft(item, " ")
		if item == "" || item[len(item)-1] == ' ' {
			return nil, false // [a, ] and blanks before a comma: the long way
		}
		n, ok := quickScalar(item, true, line)
		if !ok {
			return nil, false
		}
		seq.Content = append(seq.Content, n)
	}
	return seq, true
}

// quickScalar reads one scalar written on one line: quoted without escapes, or plain. inFlow: an
// item of a flow list, where more characters end a plain scalar.
func quickScalar(s string, inFlow bool, line int) (*yaml.Node, bool) {
	if !quickPrintable(s) {
		return nil, false
	}
	switch q := s[0]; q {
	case '"', '\'':
		inner := s[1:]
		if len(inner) == 0 || inner[len(inner)-1] != q {
			return nil, false
		}
		inner = inner[:len(inner)-1]
		if strings.IndexByte(inner, q) >= 0 || (q == '"' && strings.IndexByte(inner, '\\') >= 0) || (inFlow && strings.ContainsAny(inner, ",[]")) {
			return nil, false
		}
		style := yaml.DoubleQuotedStyle
		if q == '\'' {
			style = yaml.SingleQuotedStyle
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: inner, Style: style, Line: line}, true
	}
	if !quickPlainSyntax(s, inFlow) {
		return nil, false
	}
	tag, ok := quickPlainTag(s)
	if !ok {
		return nil, false
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s, Line: line}, true
}

// quickPlainSyntax reports whether s, unquoted, is read by YAML as exactly s: it cannot start with
// an indicator, end a scalar early (": ", " #", in a flow list ",?[]{}") or be trimmed.
func quickPlainSyntax(s string, inFlow bool) bool {
	if s == "" || strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", s[0]) >= 0 || s[len(s)-1] == ' ' || s[len(s)-1] == ':' {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return false
	}
	return !inFlow || !strings.ContainsAny(s, ",?[]{}")
}

// quickPlainTag is the tag yaml.v3 resolves a plain scalar to, for the scalars whose tag it can
// tell for sure: null and booleans, words starting with a letter (strings), counts and dates.
func quickPlainTag(s string) (string, bool) {
	switch s {
	case "~", "null", "Null", "NULL":
		return "!!null", true
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool", true
	}
	if isASCIILetter(s[0]) || s[0] >= utf8.RuneSelf {
		return "!!str", true // yaml.v3 resolves such a scalar only against the words above
	}
	if isCount(s) {
		return "!!int", true
	}
	if isDate(s) {
		if _, err := time.Parse(time.DateOnly, s); err == nil {
			return "!!timestamp", true
		}
	}
	return "", false
}

// quickPrintable reports text of one line that YAML reads and writes as it is: no tab or control
// character, valid UTF-8 of printable characters (no byte order mark, no C1 controls).
func quickPrintable(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || !quickPrintableRune(r) {
			return false
		}
		i += size
	}
	return true
}

// quickPrintableRune: the non-ASCII characters yaml.v3 reads and writes as they are (its
// is_printable, less the line and paragraph separators, which are line breaks to it).
func quickPrintableRune(r rune) bool {
	return (r >= 0xA0 && r <= 0xD7FF && r != '\u2028' && r != '\u2029') || (r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF)
}

// quickPlain reports, without parsing, a value that yamlScalar may write unquoted: plain syntax,
// resolved to a string (a letter first, and not a boolean or null), and no blank at either end
// (probePlain's rule: even a Unicode space is quoted).
func quickPlain(s string, inFlow bool) bool {
	if !quickPrintable(s) || !quickPlainSyntax(s, inFlow) || strings.TrimSpace(s) != s {
		return false
	}
	tag, ok := quickPlainTag(s)
	return ok && tag == "!!str"
}

// quickDoubleQuoted is doubleQuoted of a string yaml.v3 writes without an escape, ok false when s
// needs one.
func quickDoubleQuoted(s string) (string, bool) {
	if s != "" && (!quickPrintable(s) || strings.ContainsAny(s, `"\`)) {
		return "", false
	}
	return `"` + s + `"`, true
}

// isCount reports a decimal count without leading zeros or sign, short enough for an int64.
func isCount(s string) bool {
	if s == "" || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
