package agentlink

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/renameio/v2"
	"go.yaml.in/yaml/v3"
)

// Agents lists the agents link knows, each with the instruction file it reads at startup.
var Agents = []string{"codex", "gemini", "aider"}

// Link is one agent's instruction file(s) carrying a project's memory, or with Scope set the
// user's or the team's store (Claude Code's user-level CLAUDE.md importing it).
type Link struct {
	Agent   string `json:"agent"`
	Project string `json:"project"`         // "" for a scope's link
	Scope   string `json:"scope,omitempty"` // user or team; "" for a project's link
	Store   string `json:"store"`
	Files   []File `json:"files"`
	InRepo  bool   `json:"in_repo,omitempty"` // files in the project are meant to be seen by git
	// Todo is what the person still has to do by hand, "" when nothing (an Aider configuration
	// that already lists files to read is not rewritten).
	Todo string `json:"todo,omitempty"`
}

// File is one file a link writes a block into.
type File struct {
	Path     string  `json:"path"`
	YAML     bool    `json:"yaml,omitempty"`  // YAML comment markers instead of Markdown ones
	Fixed    string  `json:"fixed,omitempty"` // the block's text when it is not the memory (Aider's read: line)
	Written  Written `json:"written"`
	Root     string  `json:"root,omitempty"`     // the repository whose exclude file was changed
	Excluded string  `json:"excluded,omitempty"` // what was added to it
}

// Options shape where a link goes.
type Options struct {
	InRepo bool   // write into the project's own instruction file even when git tracks it
	Home   string // the user's home directory, for user-level files
}

// ErrUnknownAgent is returned for an agent link does not know.
var ErrUnknownAgent = errors.New("unknown agent")

// NewScope links the store of scope ("user" or "team") in storeDir into Claude Code's user-level
// CLAUDE.md ($CLAUDE_CONFIG_DIR, else ~/.claude), which Claude Code loads in every project: a block
// that imports the store's MEMORY.md (Claude Code's @path import), so it is always current without
// rewriting the file after each pass.
func NewScope(scope, storeDir string, o Options) Link {
	file := filepath.Join(cmp.Or(os.Getenv("CLAUDE_CONFIG_DIR"), filepath.Join(o.Home, ".claude")), "CLAUDE.md")
	what := map[string]string{"user": "What you know about me in every project", "team": "What my team knows, shared through git"}[scope]
	text := fmt.Sprintf("%s, kept by dreamd (topic files in %s):\n@%s\n", what, storeDir, filepath.Join(storeDir, "MEMORY.md"))
	return Link{Agent: "claude", Scope: scope, Store: storeDir, Files: []File{{Path: file, Fixed: text}}}
}

// New decides where agent reads project's memory. The default is the least intrusive place the
// agent reads at startup: its instruction file at the project root when git does not track it
// (created if need be and listed in the repository's private .git/info/exclude, so git status
// stays clean), else the agent's user-level file with a block for this project. InRepo writes
// into the project's file whatever git thinks of it.
func New(agent, project, storeDir string, o Options) (Link, error) {
	l := Link{Agent: agent, Project: project, Store: storeDir, InRepo: o.InRepo}
	switch agent {
	case "codex", "gemini":
		name := map[string]string{"codex": "AGENTS.md", "gemini": "GEMINI.md"}[agent]
		path := filepath.Join(project, name)
		if !o.InRepo && tracked(project, path) {
			path = userFile(agent, o.Home)
		}
		l.Files = []File{{Path: path}}
	case "aider":
		conv := filepath.Join(project, ".aider.dreamd.md")
		conf := filepath.Join(project, ".aider.conf.yml")
		l.Files = []File{{Path: conv}}
		switch reads, err := hasReadKey(conf); {
		case err != nil:
			return l, err
		case reads || !o.InRepo && tracked(project, conf):
			l.Todo = fmt.Sprintf("add %s to the `read:` list of %s (or start aider with --read %s)", filepath.Base(conv), conf, conv)
		default:
			l.Files = append(l.Files, File{Path: conf, YAML: true, Fixed: "read: " + filepath.Base(conv) + "\n"})
		}
	default:
		return l, fmt.Errorf("%w %q (known: %s)", ErrUnknownAgent, agent, strings.Join(Agents, ", "))
	}
	return l, nil
}

// userFile is the agent's user-level instruction file, read in every project.
func userFile(agent, home string) string {
	if agent == "codex" {
		return filepath.Join(cmp.Or(os.Getenv("CODEX_HOME"), filepath.Join(home, ".codex")), "AGENTS.md")
	}
	return filepath.Join(home, ".gemini", "GEMINI.md")
}

// hasReadKey reports whether an Aider configuration already has a top-level read: key, which a
// second one would clash with.
func hasReadKey(conf string) (bool, error) {
	data, err := os.ReadFile(conf)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var top map[string]any
	if err := yaml.Unmarshal(data, &top); err != nil {
		return false, fmt.Errorf("%s: %w", conf, err)
	}
	_, ok := top["read"]
	return ok, nil
}

// key names the link's block among others in a shared file.
func (l Link) key() string { return Key(l.Project, l.Scope) }

// Key names a link among the others: its project, or its scope.
func Key(project, scope string) string {
	if scope != "" {
		return "dreamd " + scope + " scope"
	}
	return project
}

// inProject reports whether path lies in the project (then git must not see it).
func (l Link) inProject(path string) bool {
	if l.Project == "" {
		return false
	}
	rel, err := filepath.Rel(l.Project, path)
	return err == nil && !strings.HasPrefix(rel, "..")
}

// shared reports whether f is a user-level file that holds other projects' blocks too.
func (l Link) shared(f File) bool { return !l.inProject(f.Path) }

// Write puts the memory (or the file's fixed text) into every file of the link, hiding files it
// creates in the project from git unless they are meant to be there. It reports whether any
// file changed.
func (l *Link) Write(memory string) (bool, error) {
	changed := false
	for i := range l.Files {
		f := &l.Files[i]
		text := f.Fixed
		switch {
		case text != "":
		case l.shared(*f):
			text = sharedText(l.Project, memory)
		default:
			text = memory
		}
		w, ch, err := f.markers().Put(f.Path, l.key(), text, 0o644)
		if err != nil {
			return changed, err
		}
		if ch && f.Written == (Written{}) {
			f.Written = w
		}
		changed = changed || ch
		if w.Created && !l.InRepo && l.inProject(f.Path) && f.Excluded == "" {
			added, err := exclude(l.Project, f.Path)
			if err != nil {
				return changed, err
			}
			f.Root, f.Excluded = l.Project, added
		}
	}
	return changed, nil
}

// sharedText is a project's memory in a user-level file every project shares: under a heading
// naming the project, with the memory's own headings moved below it, so an agent working
// elsewhere can tell it is not about its project.
func sharedText(project, memory string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Memory of the project %s\n\nWhat follows applies only when working in %s.\n\n", project, project)
	var f fence
	for line := range strings.Lines(memory) {
		if !f.open() && strings.HasPrefix(line, "#") {
			b.WriteString("##") // "# Memory" becomes "### Memory", under this "## Memory of the project"
		}
		f.step(strings.TrimRight(line, "\r\n"))
		b.WriteString(line)
	}
	return b.String()
}

// Undo removes every block of the link and whatever it added to git's exclude file, leaving each
// file as it was before the link.
func (l Link) Undo() error {
	var errs []error
	for _, f := range l.Files {
		if _, err := f.markers().Remove(f.Path, l.key(), f.Written); err != nil {
			errs = append(errs, err)
		}
		if err := unexclude(f.Root, f.Excluded); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (f File) markers() Markers {
	if f.YAML {
		return YAML
	}
	return Markdown
}

// registry is where links are remembered, under dreamd's state directory.
func registry(stateDir string) string { return filepath.Join(stateDir, "links.json") }

// Load returns the links on record.
func Load(stateDir string) ([]Link, error) {
	data, err := os.ReadFile(registry(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return []Link{}, nil
	}
	if err != nil {
		return nil, err
	}
	var links []Link
	if err := json.Unmarshal(data, &links); err != nil {
		return nil, fmt.Errorf("%s: %w", registry(stateDir), err)
	}
	return links, nil
}

// Save records links, sorted by project and agent.
func Save(stateDir string, links []Link) error {
	slices.SortFunc(links, func(a, b Link) int {
		return cmp.Or(cmp.Compare(a.Project, b.Project), cmp.Compare(a.Agent, b.Agent))
	})
	data, err := json.MarshalIndent(links, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return err
	}
	return renameio.WriteFile(registry(stateDir), append(data, '\n'), 0o600)
}

// Index returns the position of agent's link with key (Key) in links, or -1.
func Index(links []Link, agent, key string) int {
	return slices.IndexFunc(links, func(l Link) bool { return l.Agent == agent && l.key() == key })
}
