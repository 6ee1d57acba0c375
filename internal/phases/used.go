package phases

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// used.go records when each memory was last used: read by an agent (a tool call in a transcript
// naming its topic file), followed (a session ran the command it names), or returned by recall. It lives in the store's state (usedFile), not in
// the topic files: use is frequent, and rewriting a memory on every read would churn the store
// and its history. prune.unused_days retires what nobody used for that long (decide.go).
//
// The index (MEMORY.md, the preamble, a link's instruction block) carrying a memory is not use:
// every indexed memory is carried into every session, so it would mark every memory used on every
// pass and unused_days would never retire anything.

// usedFile is the store's last-use record, in store.Paths.State.
const usedFile = "used.json"

// Used maps a memory's name to the day it was last used (2006-01-02).
type Used map[string]string

// LoadUsed reads a store's last-use record; empty when it has none.
func LoadUsed(p store.Paths) (Used, error) {
	var f struct {
		Used Used `json:"used"`
	}
	if err := readJSON(filepath.Join(p.State, usedFile), &f); err != nil {
		return Used{}, err
	}
	if f.Used == nil {
		f.Used = Used{}
	}
	return f.Used, nil
}

// MarkUsed records that the memories names of the store p were used on day (recall, the MCP
// recall tool). A day earlier than the one recorded leaves it as it is.
func MarkUsed(p store.Paths, names []string, day time.Time) error {
	if len(names) == 0 {
		return nil
	}
	u, err := LoadUsed(p)
	if err != nil {
		u = Used{} // bookkeeping only: an unreadable record is replaced
	}
	seen := make(map[string]time.Time, len(names))
	for _, n := range names {
		seen[n] = day
	}
	if !u.add(seen) {
		return nil
	}
	return saveUsed(p, u)
}

// add merges the days in seen into u, keeping the later of the two; it reports whether u changed.
func (u Used) add(seen map[string]time.Time) bool {
	changed := false
	for name, t := range seen {
		day := t.UTC().Format(time.DateOnly)
		if day > u[name] {
			u[name], changed = day, true
		}
	}
	return changed
}

// saveUsed writes the record atomically.
func saveUsed(p store.Paths, u Used) error {
	if err := os.MkdirAll(p.State, 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(struct {
		Version int  `json:"version"`
		Used    Used `json:"used"`
	}{1, u}, "", "  ")
	return renameio.WriteFile(filepath.Join(p.State, usedFile), append(b, '\n'), 0o600)
}

// lastUsed is the store's last-use record with the reads of this pass's sessions added, and
// recorded (use is a fact: it is kept whatever becomes of the pass's plan; a dry run writes
// nothing). A record that cannot be read or written costs retention only, never the pass.
func lastUsed(env *Env, o *Oriented, sessions []extract.Session, dryRun bool) Used {
	u, err := LoadUsed(o.Paths)
	if err != nil {
		env.log().Warn("last-use record unreadable; starting a new one", "store", o.Paths.Store, "err", err)
		u = Used{}
	}
	read := u.add(usedIn(sessions, o.Store.Dir, o.Store.Memories))
	followed := u.add(followedIn(sessions, o.Store.Memories))
	if (read || followed) && !dryRun {
		if err := saveUsed(o.Paths, u); err != nil {
			env.log().Warn("last-use record not written", "store", o.Paths.Store, "err", err)
		}
	}
	return u
}

// usedIn finds the memories of the store in dir that the sessions' tool calls read: a tool line
// naming dir/<name>.md, or, for a store in a folder named memory (Claude Code's, under
// ~/.claude/projects), memory/<name>.md, however the path before it is written (~, relative).
// Each is dated by the latest session that read it. One scan of the tool turns.
func usedIn(sessions []extract.Session, dir string, memories []*store.Memory) map[string]time.Time {
	names := make(map[string]bool, len(memories))
	for _, m := range memories {
		names[m.Name] = true
	}
	out := map[string]time.Time{}
	if len(names) == 0 || dir == "" {
		return out
	}
	dir = filepath.ToSlash(filepath.Clean(dir))
	tail := ""
	if filepath.Base(dir) == "memory" {
		tail = "memory"
	}
	for _, s := range sessions {
		for _, t := range s.Turns {
			if t.Role != transcript.Tool || !strings.Contains(t.Text, ".md") {
				continue
			}
			for _, name := range topicFilesIn(t.Text, dir, tail) {
				if last, ok := out[name]; names[name] && (!ok || s.Date.After(last)) {
					out[name] = s.Date
				}
			}
		}
	}
	return out
}

// topicFilesIn lists the names of the <name>.md files text names inside dir (or, tail set, inside
// a folder of that name).
func topicFilesIn(text, dir, tail string) []string {
	text = strings.ReplaceAll(text, `\`, "/")
	var out []string
	for rest, off := text, 0; ; {
		i := strings.Index(rest, ".md")
		if i < 0 {
			return out
		}
		end := off + i + len(".md")
		rest, off = text[end:], end
		if end < len(text) && nameChar(text[end]) {
			continue // .mdx, .md5
		}
		slash := strings.LastIndexByte(text[:end-len(".md")], '/')
		if slash < 0 {
			continue
		}
		name, folder := text[slash+1:end-len(".md")], text[:slash]
		if name == "" || name == "MEMORY" {
			continue
		}
		if endsIn(folder, dir) || tail != "" && endsIn(folder, tail) {
			out = append(out, name)
		}
	}
}

// endsIn reports whether the path text before a topic file's name ends in folder, as a whole
// path element ("/x/memory", "cat memory", "'memory"; not "notmemory").
func endsIn(text, folder string) bool {
	if !strings.HasSuffix(text, folder) {
		return false
	}
	before := len(text) - len(folder)
	return before == 0 || strings.HasPrefix(folder, "/") || !nameChar(text[before-1]) && text[before-1] != '.'
}

// nameChar reports a byte that can continue a file name.
func nameChar(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// followedIn finds the memories the sessions followed: a command a memory names in a code span
// (`make lint`, `pnpm run build`, `npm test`) that a session's tool call ran, dated by the latest
// such session. The commands run are gathered first (usually none, or a few); only then are the
// memories' code spans scanned, with no regular expression, so a large store costs one byte scan.
func followedIn(sessions []extract.Session, memories []*store.Memory) map[string]time.Time {
	ran := map[string]time.Time{} // canonical command → the latest session that ran it
	for _, s := range sessions {
		for _, t := range s.Turns {
			if t.Role != transcript.Tool {
				continue
			}
			for _, cmd := range commandsRun(t.Text) {
				if last, ok := ran[cmd]; !ok || s.Date.After(last) {
					ran[cmd] = s.Date
				}
			}
		}
	}
	out := map[string]time.Time{}
	if len(ran) == 0 {
		return out
	}
	for _, m := range memories {
		for _, text := range []string{m.Description, m.Body} {
			for _, span := range codeSpans(text) {
				if day, ok := ran[canonicalCommand(strings.Fields(span))]; ok {
					if last, seen := out[m.Name]; !seen || day.After(last) {
						out[m.Name] = day
					}
				}
			}
		}
	}
	return out
}

// codeSpans lists the `code spans` of text.
func codeSpans(text string) []string {
	var out []string
	for {
		i := strings.IndexByte(text, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(text[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, text[i+1:i+1+j])
		text = text[i+1+j+1:]
	}
}

// commandsRun lists the commands a tool call line ran ("Bash: cd web && npm run lint | tail"),
// each in canonical form (canonicalCommand). A line that is not a tool call ("Name: argument")
// runs nothing.
func commandsRun(line string) []string {
	name, arg, ok := strings.Cut(line, ": ")
	if !ok || strings.ContainsAny(name, " \n") {
		return nil
	}
	var out []string
	for _, seg := range strings.FieldsFunc(arg, func(r rune) bool { return r == '&' || r == ';' || r == '|' || r == '\n' }) {
		if cmd := canonicalCommand(strings.Fields(seg)); cmd != "" {
			out = append(out, cmd)
		}
	}
	return out
}

// canonicalCommand names a make target or a package script however it is spelt ("make lint";
// "npm run build", "pnpm build", "yarn run build", "bun run build" are all "script build"); ""
// for any other command.
func canonicalCommand(f []string) string {
	switch {
	case len(f) >= 2 && (f[0] == "make" || f[0] == "gmake") && !strings.HasPrefix(f[1], "-") && !strings.Contains(f[1], "="):
		return "make " + f[1]
	case len(f) >= 3 && f[1] == "run" && (f[0] == "npm" || f[0] == "pnpm" || f[0] == "yarn" || f[0] == "bun"):
		return "script " + f[2]
	case len(f) >= 2 && f[0] == "npm" && (f[1] == "test" || f[1] == "start"):
		return "script " + f[1]
	case len(f) >= 2 && (f[0] == "pnpm" || f[0] == "yarn") && !strings.HasPrefix(f[1], "-") && !pmCommand[f[1]]:
		return "script " + f[1]
	}
	return ""
}

// pmCommand are pnpm's and yarn's own commands, which are no script's name.
var pmCommand = map[string]bool{"add": true, "install": true, "i": true, "remove": true, "update": true, "up": true, "exec": true, "dlx": true, "run": true, "why": true, "list": true, "ls": true, "init": true, "create": true, "link": true, "outdated": true, "audit": true, "config": true, "store": true, "import": true, "rebuild": true, "prune": true, "publish": true, "pack": true, "global": true, "set": true, "workspace": true, "workspaces": true, "info": true, "upgrade": true}
