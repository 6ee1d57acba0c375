package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Placeholders for the machine the sessions were recorded on.
const (
	placeholderHome = "/home/user"
	placeholderTmp  = "/tmp/agent"
)

// trimAbove is the length above which a JSON string is vendor text (system prompts, tool lists,
// skills, instructions) and is cut to its head and tail: the person's messages are all shorter,
// and a marker a reader recognises (an opening or closing tag) stays.
const trimAbove = 400

// recorded lists, per agent, the paths under HOME that hold its sessions.
var recorded = map[string][]string{
	"claude":  {".claude/projects"},
	"codex":   {".codex/sessions"},
	"gemini":  {".gemini/tmp", ".gemini/history", ".gemini/projects.json"},
	"cline":   {".cline/data/sessions"},
	"qwen":    {".qwen/projects"},
	"copilot": {".copilot/session-state"},
}

// record copies the agent's transcripts from home into out: long vendor strings trimmed, the
// recording machine's paths (and the hashes Gemini CLI derives from them) replaced by placeholders.
func record(args []string) error {
	fs := newFlags("record")
	agent := fs.String("agent", "", "claude, codex or gemini")
	home := fs.String("home", "", "a copy of the agent's HOME after the sessions")
	out := fs.String("out", "", "the fixture directory to write")
	today := fs.String("today", "", "the day the sessions ran, YYYY-MM-DD (UTC)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c := checker{prefix: *agent + " record:"}
	r := newRewriter(strings.TrimSuffix(*home, ".recorded"))
	var n int
	for _, rel := range recorded[*agent] {
		root := filepath.Join(*home, rel)
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return err
			}
			name := d.Name()
			// A .runtime.json is Qwen Code's note of its running terminal UI (pid, host name), no
			// transcript.
			if name == "settings.json" || strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".runtime.json") || strings.Contains(path, "/memory/") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			dest := filepath.Join(*out, r.path(strings.TrimPrefix(path, *home+"/")))
			if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
				return err
			}
			n++
			return os.WriteFile(dest, r.file(name, b), 0o644)
		})
		if err != nil {
			return err
		}
	}
	if n > 0 {
		if err := writeFacts(*out, *today); err != nil {
			return err
		}
		if err := addAnswerFacts(*out, *agent); err != nil { // answers.go
			return err
		}
	}
	c.check(fmt.Sprintf("copied %d files to %s", n, filepath.Base(*out)), func() error {
		if n == 0 {
			return fmt.Errorf("no transcript under %v", recorded[*agent])
		}
		return leftovers(*out, r.real)
	}())
	return nil
}

// facts is what internal/transcript/agents_test.go asserts of a recording: facts.json beside it.
type facts struct {
	Project  string `json:"project"`  // the project the sessions ran in, as placeholder
	Date     string `json:"date"`     // the day they ran (UTC)
	Lesson   string `json:"lesson"`   // the person's first message; its session's shell call fails
	Resumed  string `json:"resumed"`  // the person's message in the resumed session
	Delegate string `json:"delegate"` // the person's message asking for a sub-agent
	Subagent string `json:"subagent"` // the prompt the sub-agent got, never the person's words
	Commands string `json:"commands"` // the person's message asking to run the frontend tests (commands.go)
}

func writeFacts(dir, today string) error {
	b, err := json.MarshalIndent(facts{
		Project: placeholderHome + "/src/shop", Date: today,
		Lesson: messages["lesson"], Resumed: messages["resumed"], Delegate: messages["delegate"],
		Subagent: subagentPrompt, Commands: messages["commands"],
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "facts.json"), append(b, '\n'), 0o644)
}

// leftovers reports a file of dir that still names the recording machine.
func leftovers(dir string, real []string) error {
	host, _ := os.Hostname()
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		for _, s := range append(slices.Clone(real), host) {
			if len(s) >= 4 && strings.Contains(string(b), s) {
				return fmt.Errorf("%s still contains %q", path, s)
			}
		}
		return nil
	})
}

// rewriter maps the recording machine's paths and names to placeholders.
type rewriter struct {
	pairs []string // old, new, … for strings.Replacer, longest first
	real  []string // the old strings, to check nothing is left
}

func newRewriter(home string) *rewriter {
	work := filepath.Dir(filepath.Dir(home)) // the script's work directory
	agentDir := filepath.Dir(home)
	project := filepath.Join(home, "src", "shop")
	newProject := placeholderHome + "/src/shop"
	r := &rewriter{}
	add := func(old, new string) {
		r.pairs = append(r.pairs, old, new)
		r.real = append(r.real, old)
	}
	// Gemini CLI names a project by the SHA-256 of its path.
	add(sha256Hex(project), sha256Hex(newProject))
	add(sha256Hex(home), sha256Hex(placeholderHome))
	add(filepath.Join(agentDir, "tmp"), placeholderTmp)
	add(home, placeholderHome)
	// Claude Code's folder names of those paths.
	add(claudeFolder(filepath.Join(agentDir, "tmp")), claudeFolder(placeholderTmp))
	add(claudeFolder(home), claudeFolder(placeholderHome))
	add(work, placeholderTmp)
	// The work directory's random part, in case a path survives only in part.
	if _, random, ok := strings.Cut(filepath.Base(work), "."); ok && len(random) >= 6 {
		r.real = append(r.real, random)
	}
	if host, err := os.Hostname(); err == nil && len(host) >= 4 {
		add(host, "host")
	}
	return r
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func (r *rewriter) replacer() *strings.Replacer { return strings.NewReplacer(r.pairs...) }

func (r *rewriter) path(p string) string { return r.replacer().Replace(p) }

// file rewrites one file: JSON and JSON Lines have their long strings trimmed, byte for byte
// otherwise (a re-encoding would reorder keys, which readers of these formats may rely on).
func (r *rewriter) file(name string, b []byte) []byte {
	// Paths first: a cut string may keep the tail of a path, which no longer matches whole.
	s := r.replacer().Replace(string(b))
	switch {
	case strings.HasSuffix(name, ".jsonl"):
		lines := strings.SplitAfter(s, "\n")
		for i, line := range lines {
			limit := trimAbove
			if vendorRecord(line) {
				limit = trimVendor
			}
			lines[i] = trimStrings(line, limit)
		}
		s = strings.Join(lines, "")
	case strings.HasSuffix(name, ".json"):
		s = trimStrings(s, trimAbove)
	}
	return []byte(s)
}

// trimVendor is the limit in records that hold nothing but the CLI's own prompt: Claude Code
// 2.1 writes its whole system prompt and tool list into the transcript, in many short strings.
const trimVendor = 80

// vendorRecord tells a record that is the CLI's own prompt and tools, not the conversation.
func vendorRecord(line string) bool {
	for _, marker := range []string{`"type":"api-request-shape"`, `"type":"api-request-blob"`, `"type":"prompt_snapshot"`,
		`"type":"skill_listing"`, `"type":"agent_listing_delta"`, `"type":"deferred_tools_delta"`} {
		if strings.Contains(line, marker) {
			return true
		}
	}
	return false
}

// trimStrings cuts every JSON string literal of s longer than limit that holds none of the
// person's messages to its head and tail, leaving every other byte as it was.
func trimStrings(s string, limit int) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '"' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(s) {
			b.WriteString(s[i:])
			break
		}
		lit := s[i : j+1]
		i = j + 1
		var v string
		if len(lit) <= limit || json.Unmarshal([]byte(lit), &v) != nil || holdsMessage(v) {
			b.WriteString(lit)
			continue
		}
		rs := []rune(v)
		if len(rs) <= limit {
			b.WriteString(lit)
			continue
		}
		head, tail := min(200, limit/2), min(100, limit/4)
		cut := string(rs[:head]) + "\n[… trimmed by scripts/agents: vendor text …]\n" + string(rs[len(rs)-tail:])
		enc, _ := json.Marshal(cut)
		b.Write(enc)
	}
	return b.String()
}

func holdsMessage(v string) bool {
	for _, m := range messages {
		if strings.Contains(v, m) {
			return true
		}
	}
	return false
}
