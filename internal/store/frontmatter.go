package store

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/slug"
)

// frontMatter is what dreamd reads from a topic file's YAML header.
type frontMatter struct {
	name, description, typ, created, updated string
	learnt, confirmed                        string
	sources, retaught                        []string
	retaughtCount                            int
	pinned                                   bool
	extra                                    []extraKey
	// metaType is the type under `metadata:`, where Claude Code 2.1 writes its own memories' type.
	metaType string
}

// metadataKey holds Claude Code 2.1's own fields of a memory: `metadata:` then `  type: feedback`.
const metadataKey = "metadata"

// splitFrontMatter cuts text into the YAML between a first line "---" and the next line "---",
// and the body after it. ok is false when text does not start with such a block.
func splitFrontMatter(text string) (fm, body string, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || strings.TrimSuffix(first, "\r") != "---" {
		return "", "", false
	}
	for off := 0; off < len(rest); {
		line, _, more := strings.Cut(rest[off:], "\n")
		end := off + len(line)
		if strings.TrimSuffix(line, "\r") == "---" {
			if more {
				return rest[:off], rest[end+1:], true
			}
			return rest[:off], "", true
		}
		if !more {
			break
		}
		off = end + 1
	}
	return "", "", false
}

// errUnfaithful marks YAML that is valid but that dreamd could not write back as it was.
var errUnfaithful = errors.New("front matter cannot be kept as written")

// parseFrontMatter reads the front matter block. Besides YAML errors it refuses what it could not
// rewrite faithfully: anything but a block mapping of plain keys at column 1, duplicate keys,
// aliases, document markers, and known keys whose values are not scalars (or a list for sources).
func parseFrontMatter(text string) (*frontMatter, error) {
	// Entries are cut out by YAML's line numbers, so only "\n" (with an optional "\r") may break
	// lines; YAML also breaks at a lone "\r", NEL, LS and PS.
	if strings.ContainsAny(text, "\u0085\u2028\u2029") || hasLoneCR(text) {
		return nil, fmt.Errorf("%w: unusual line breaks", errUnfaithful)
	}
	if fm, ok := quickFrontMatter(text); ok {
		return fm, nil
	}
	return yamlFrontMatter(text)
}

// hasLoneCR reports a "\r" not followed by "\n".
func hasLoneCR(text string) bool {
	for i := strings.IndexByte(text, '\r'); i >= 0; i = strings.IndexByte(text, '\r') {
		if i+1 == len(text) || text[i+1] != '\n' {
			return true
		}
		text = text[i+1:]
	}
	return false
}

// yamlFrontMatter is parseFrontMatter by yaml.v3, for what quickFrontMatter does not read.
func yamlFrontMatter(text string) (*frontMatter, error) {
	fm := &frontMatter{}
	lines := strings.SplitAfter(text, "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, "---") || strings.HasPrefix(l, "...") {
			return nil, fmt.Errorf("%w: document marker %q", errUnfaithful, strings.TrimSpace(l))
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	if doc.Kind == 0 {
		return fm, nil // empty or only comments
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode || doc.Content[0].Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%w: not a block mapping", errUnfaithful)
	}
	if hasAlias(&doc) {
		return nil, fmt.Errorf("%w: aliases", errUnfaithful)
	}
	pairs := doc.Content[0].Content
	seen := map[string]bool{}
	for i := 0; i+1 < len(pairs); i += 2 {
		k, v := pairs[i], pairs[i+1]
		if k.Kind != yaml.ScalarNode || k.Column != 1 || (i > 0 && k.Line <= pairs[i-2].Line) || seen[k.Value] {
			return nil, fmt.Errorf("%w: key %q", errUnfaithful, k.Value)
		}
		seen[k.Value] = true
		if err := fm.set(k.Value, v); err != nil {
			return nil, err
		}
		if known(k.Value) {
			continue
		}
		end := len(lines)
		if i+2 < len(pairs) {
			end = pairs[i+2].Line - 1
		}
		if k.Line < 1 || end > len(lines) || k.Line > end {
			return nil, fmt.Errorf("%w: key %q out of place", errUnfaithful, k.Value)
		}
		fm.extra = append(fm.extra, extraKey{key: k.Value, text: strings.Join(lines[k.Line-1:end], "")})
	}
	return fm, nil
}

// known reports whether dreamd renders key itself; pinned is read but kept as written.
func known(key string) bool {
	switch key {
	case "name", "description", "type", "created", "updated", "sources",
		"learnt", "confirmed", "retaught", "retaught_count":
		return true
	}
	return false
}

// set reads one key's value into fm.
func (fm *frontMatter) set(key string, v *yaml.Node) error {
	if key == "sources" || key == "retaught" {
		list, err := stringList(v)
		if key == "sources" {
			fm.sources = list
		} else {
			fm.retaught = list
		}
		return err
	}
	if key == "pinned" {
		fm.pinned = v.Kind == yaml.ScalarNode && truthy(v.Value)
		return nil
	}
	if key == metadataKey {
		fm.metaType = metadataType(v)
		return nil
	}
	if !known(key) {
		return nil
	}
	if v.Kind != yaml.ScalarNode {
		return fmt.Errorf("%w: %s is not a single value", errUnfaithful, key)
	}
	s := scalarValue(v)
	switch key {
	case "name":
		fm.name = s
	case "description":
		fm.description = s
	case "type":
		fm.typ = s
	case "created":
		fm.created = s
	case "updated":
		fm.updated = s
	case "learnt":
		fm.learnt = s
	case "confirmed":
		fm.confirmed = s
	case "retaught_count":
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || strconv.Itoa(n) != s {
			return fmt.Errorf("%w: retaught_count %q is not a count", errUnfaithful, s)
		}
		fm.retaughtCount = n
	}
	return nil
}

// metadataType is the scalar `type` of a `metadata:` mapping written as Claude Code writes it
// (a block mapping, the type on a line of its own), "" when there is none.
func metadataType(v *yaml.Node) string {
	if v.Kind != yaml.MappingNode || v.Style&yaml.FlowStyle != 0 {
		return ""
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Value == "type" && val.Kind == yaml.ScalarNode && k.Line > 0 && i == indexOfFirst(v, "type") {
			return scalarValue(val)
		}
	}
	return ""
}

// indexOfFirst is the index of a mapping's first key named key.
func indexOfFirst(v *yaml.Node, key string) int {
	for i := 0; i+1 < len(v.Content); i += 2 {
		if v.Content[i].Value == key {
			return i
		}
	}
	return -1
}

// setMetadataType writes typ into the `type:` line of a kept `metadata:` entry (the first line of
// its children's indentation that sets type), leaving the entry as written when it already says typ.
func setMetadataType(text string, typ memory.Type) string {
	lines := strings.SplitAfter(text, "\n")
	indent := ""
	for i, l := range lines {
		if i == 0 {
			continue
		}
		trimmed := strings.TrimLeft(l, " \t")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.TrimSpace(trimmed) == "" {
			continue
		}
		if indent == "" {
			indent = l[:len(l)-len(trimmed)]
		}
		if l[:len(l)-len(trimmed)] != indent || !strings.HasPrefix(trimmed, "type:") {
			continue
		}
		var doc struct{ Type string }
		if yaml.Unmarshal([]byte(strings.TrimSpace(trimmed)), &doc) == nil && doc.Type == string(typ) {
			return text
		}
		end := "\n"
		if !strings.HasSuffix(l, "\n") {
			end = ""
		} else if strings.HasSuffix(l, "\r\n") {
			end = "\r\n"
		}
		lines[i] = indent + "type: " + yamlScalar(string(typ)) + end
		return strings.Join(lines, "")
	}
	return text
}

// stringList reads a list of scalars; a lone scalar is a list of one, null an empty list.
func stringList(v *yaml.Node) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		if s := scalarValue(v); s != "" {
			return []string{s}, nil
		}
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%w: a list key holds a mapping", errUnfaithful)
	}
	var list []string
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%w: a list holds a nested value", errUnfaithful)
		}
		list = append(list, scalarValue(item))
	}
	return list, nil
}

// scalarValue is a scalar's text as written; YAML null is the empty string.
func scalarValue(v *yaml.Node) string {
	if v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

func truthy(s string) bool {
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true
	}
	return false
}

// pinnedText reports whether a kept `pinned:` entry says true.
func pinnedText(text string) bool {
	var doc yaml.Node
	if yaml.Unmarshal([]byte(text), &doc) != nil || len(doc.Content) != 1 || len(doc.Content[0].Content) != 2 {
		return false
	}
	v := doc.Content[0].Content[1]
	return v.Kind == yaml.ScalarNode && truthy(v.Value)
}

func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// yamlScalar renders s as a YAML value: plain when it reads back as exactly s (so dates and
// slugs stay unquoted), double-quoted otherwise.
func yamlScalar(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if plainReadsBack("k: "+s+"\n", s, false) {
		return s
	}
	return doubleQuoted(s)
}

// yamlFlowList renders a list as a YAML flow sequence "[a, b]".
func yamlFlowList(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		s = strings.ToValidUTF8(s, "\uFFFD")
		if plainReadsBack("k: ["+s+"]\n", s, true) {
			out[i] = s
		} else {
			out[i] = doubleQuoted(s)
		}
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// plainReadsBack reports whether doc, a one-key mapping holding s unquoted (inside a one-item
// flow list when inList), parses back to the plain string (or date) s.
func plainReadsBack(doc, s string, inList bool) bool {
	return plainWithoutProbe(s) || quickPlain(s, inList) || probePlain(doc, s, inList)
}

// plainWithoutProbe is true for the values most front matter holds — names, types, dates — which
// YAML reads back as the same plain string (TestPlainWithoutProbeAgreesWithYAML holds it to that),
// so loading a store need not parse a YAML document for each of them.
func plainWithoutProbe(s string) bool {
	switch {
	case s == "true" || s == "false" || s == "null":
		return false
	case isDate(s):
		return true
	}
	return slug.Valid(s) && s[0] >= 'a' && s[0] <= 'z'
}

// isDate reports whether s is a YYYY-MM-DD date.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// probePlain parses doc to see whether s, unquoted in it, reads back as itself.
func probePlain(doc, s string, inList bool) bool {
	if s == "" || strings.ContainsAny(s, "\n\r") || strings.TrimSpace(s) != s {
		return false
	}
	var n yaml.Node
	if yaml.Unmarshal([]byte(doc), &n) != nil || len(n.Content) != 1 {
		return false
	}
	m := n.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return false
	}
	v := m.Content[1]
	if inList {
		if v.Kind != yaml.SequenceNode || len(v.Content) != 1 {
			return false
		}
		v = v.Content[0]
	}
	// Values that YAML reads as numbers or booleans are quoted, so other readers get strings too;
	// dates stay plain, as in Claude Code's own files.
	return v.Kind == yaml.ScalarNode && v.Style == 0 && (v.Tag == "!!str" || v.Tag == "!!timestamp") && v.Value == s
}

func doubleQuoted(s string) string {
	if q, ok := quickDoubleQuoted(s); ok {
		return q
	}
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle})
	if err != nil {
		// yaml.v3 only fails on invalid UTF-8, which the callers have already replaced.
		return `""`
	}
	return strings.TrimSuffix(string(out), "\n")
}
