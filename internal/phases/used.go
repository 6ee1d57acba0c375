package phases

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"github.com/dreamd/dreamd/internal/cite"
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
// (`make lint`, `pnpm run build`, `npm test`; see cite.Find) that a session's tool call ran, dated
// by the latest such session. Memories are indexed by command once, and each tool call is split
// into the commands it ran, so the cost is one pass over memories and one over tool turns.
func followedIn(sessions []extract.Session, memories []*store.Memory) map[string]time.Time {
	out := map[string]time.Time{}
	var byCommand map[string][]string
	for _, s := range sessions {
		for _, t := range s.Turns {
			if t.Role != transcript.Tool {
				continue
			}
			if byCommand == nil {
				byCommand = commandsNamed(memories)
			}
			if len(byCommand) == 0 {
				return out
			}
			for _, cmd := range commandsRun(t.Text) {
				for _, name := range byCommand[cmd] {
					if last, ok := out[name]; !ok || s.Date.After(last) {
						out[name] = s.Date
					}
				}
			}
		}
	}
	return out
}

// commandsNamed maps each command the memories name ("make lint", "npm run build") to the names
// of the memories naming it, with the spellings the package managers accept for a script.
func commandsNamed(memories []*store.Memory) map[string][]string {
	out := map[string][]string{}
	for _, m := range memories {
		text := m.Description + "\n" + m.Body
		if !strings.Contains(text, "`") {
			continue // commands count only in code spans
		}
		for _, c := range cite.Find(text) {
			var cmds []string
			switch c.Kind {
			case cite.Target:
				cmds = []string{"make " + c.Name}
			case cite.Script:
				cmds = []string{"npm run " + c.Name, "pnpm run " + c.Name, "pnpm " + c.Name, "yarn " + c.Name, "yarn run " + c.Name, "bun run " + c.Name}
				if c.Name == "test" || c.Name == "start" {
					cmds = append(cmds, "npm "+c.Name)
				}
			}
			for _, cmd := range cmds {
				out[cmd] = append(out[cmd], m.Name)
			}
		}
	}
	return out
}

// commandsRun lists the commands a tool call line ran ("Bash: cd web && npm run lint | tail"),
// each as its first two and first three words ("npm run", "npm run lint"). A line that is not a
// tool call ("Name: argument") runs nothing.
func commandsRun(line string) []string {
	name, arg, ok := strings.Cut(line, ": ")
	if !ok || strings.ContainsAny(name, " \n") {
		return nil
	}
	var out []string
	for _, seg := range strings.FieldsFunc(arg, func(r rune) bool { return r == '&' || r == ';' || r == '|' || r == '\n' }) {
		f := strings.Fields(seg)
		if len(f) >= 2 {
			out = append(out, f[0]+" "+f[1])
		}
		if len(f) >= 3 {
			out = append(out, f[0]+" "+f[1]+" "+f[2])
		}
	}
	return out
}
