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

// Agent names, as `dreamd link` takes them.
const (
	Codex    = "codex"
	OpenCode = "opencode"
	Kilo     = "kilo"
	Gemini   = "gemini"
	Qwen     = "qwen"
	Copilot  = "copilot"
	Crush    = "crush"
	Cline    = "cline"
	Aider    = "aider"
)

// Agents lists the agents link knows, each with the instruction file it reads at startup.
var Agents = []string{Codex, OpenCode, Kilo, Gemini, Qwen, Copilot, Crush, Cline, Aider}

// instructionFile is where an agent reads instructions at startup: a file at the project root,
// and a user-level file it reads in every project (used when git tracks the project's file).
// Each location is the one the agent's own source reads (cited in the README's link table).
type instructionFile struct {
	project string                   // relative to the project root
	user    func(home string) string // the user-level file
}

var instructionFiles = map[string]instructionFile{
	// Codex CLI: AGENTS.md from the git root down to the working directory; $CODEX_HOME/AGENTS.md.
	Codex: {"AGENTS.md", func(home string) string { return filepath.Join(envOr("CODEX_HOME", home, ".codex"), "AGENTS.md") }},
	// OpenCode (session/instruction.ts): AGENTS.md found upwards; Global.Path.config/AGENTS.md,
	// $XDG_CONFIG_HOME/opencode.
	OpenCode: {"AGENTS.md", func(home string) string { return filepath.Join(xdgConfig(home), "opencode", "AGENTS.md") }},
	// Kilo CLI, OpenCode's fork with app name "kilo" (global/index.ts): $XDG_CONFIG_HOME/kilo.
	Kilo: {"AGENTS.md", func(home string) string { return filepath.Join(xdgConfig(home), "kilo", "AGENTS.md") }},
	// Gemini CLI: GEMINI.md; ~/.gemini/GEMINI.md.
	Gemini: {"GEMINI.md", func(home string) string { return filepath.Join(home, ".gemini", "GEMINI.md") }},
	// Qwen Code (memoryTool.ts DEFAULT_CONTEXT_FILENAME): QWEN.md; $QWEN_HOME, else ~/.qwen.
	Qwen: {"QWEN.md", func(home string) string { return filepath.Join(envOr("QWEN_HOME", home, ".qwen"), "QWEN.md") }},
	// Copilot CLI: .github/copilot-instructions.md; $COPILOT_HOME, else ~/.copilot.
	Copilot: {filepath.Join(".github", "copilot-instructions.md"), func(home string) string {
		return filepath.Join(envOr("COPILOT_HOME", home, ".copilot"), "copilot-instructions.md")
	}},
	// Crush (config.go defaultContextPaths, load.go GlobalContextPaths): CRUSH.md;
	// $CRUSH_GLOBAL_CONFIG/CRUSH.md, else $XDG_CONFIG_HOME/crush/CRUSH.md.
	Crush: {"CRUSH.md", func(home string) string {
		return filepath.Join(cmp.Or(os.Getenv("CRUSH_GLOBAL_CONFIG"), filepath.Join(xdgConfig(home), "crush")), "CRUSH.md")
	}},
	// Cline (CLI: sdk storage/paths.ts resolveRulesConfigSearchPaths; VS Code: storage/disk.ts):
	// a .clinerules file, or every Markdown file in a .clinerules folder (see clineRules);
	// ~/Documents/Cline/Rules/, read by both.
	Cline: {filepath.Join(".clinerules", clineFile), func(home string) string { return filepath.Join(home, "Documents", "Cline", "Rules", clineFile) }},
}

// clineFile is dreamd's own rule file in a Cline rules folder.
const clineFile = "dreamd-memory.md"

// envOr is the directory named by the environment variable env, else home/dir.
func envOr(env, home, dir string) string { return cmp.Or(os.Getenv(env), filepath.Join(home, dir)) }

// xdgConfig is $XDG_CONFIG_HOME, else ~/.config.
func xdgConfig(home string) string { return envOr("XDG_CONFIG_HOME", home, ".config") }

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
	// MadeDir is the outermost directory created to hold the file (.github, .clinerules),
	// removed again by Undo once nothing else is in it.
	MadeDir string `json:"made_dir,omitempty"`
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
	case Codex, OpenCode, Kilo, Gemini, Qwen, Copilot, Crush, Cline:
		in := instructionFiles[agent]
		path := filepath.Join(project, in.project)
		if agent == Cline {
			path = clineRules(project)
		}
		if !o.InRepo && tracked(project, path) {
			path = in.user(o.Home)
		}
		l.Files = []File{{Path: path}}
	case Aider:
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

// clineRules is where Cline reads the project's rules: a .clinerules file when the project has
// one (a block in it), else dreamd's own file in the .clinerules folder (created if need be).
func clineRules(project string) string {
	legacy := filepath.Join(project, ".clinerules")
	if fi, err := os.Stat(legacy); err == nil && fi.Mode().IsRegular() {
		return legacy
	}
	return filepath.Join(legacy, clineFile)
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
		missing := outermostMissing(filepath.Dir(f.Path))
		w, ch, err := f.markers().Put(f.Path, l.key(), text, 0o644)
		if err != nil {
			return changed, err
		}
		if ch && f.Written == (Written{}) {
			f.Written = w
		}
		if w.Created && f.MadeDir == "" {
			f.MadeDir = missing
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
		errs = append(errs, f.undo(l.key()))
	}
	return errors.Join(errs...)
}

// undo takes key's block out of the file, and whatever writing it added around it.
func (f File) undo(key string) error {
	if _, err := f.markers().Remove(f.Path, key, f.Written); err != nil {
		return err
	}
	if f.MadeDir != "" {
		removeEmptyDirs(filepath.Dir(f.Path), f.MadeDir)
	}
	return unexclude(f.Root, f.Excluded)
}

// Unlink undoes links[i] and returns links without it. A file another link with the same key
// still writes (codex and opencode both reading the project's AGENTS.md) keeps its one block, and
// what undoing that file needs passes to that link, so whichever link goes last leaves the file
// as it was before the first.
func Unlink(links []Link, i int) ([]Link, error) {
	var errs []error
	gone := links[i]
	for _, f := range gone.Files {
		if j, k := sharer(links, i, f.Path); j >= 0 {
			links[j].Files[k].inherit(f)
			continue
		}
		errs = append(errs, f.undo(gone.key()))
	}
	if err := errors.Join(errs...); err != nil {
		return links, err
	}
	return slices.Delete(links, i, i+1), nil
}

// sharer finds another link with links[i]'s key writing path: its index and the file's.
func sharer(links []Link, i int, path string) (int, int) {
	for j, l := range links {
		if j == i || l.key() != links[i].key() {
			continue
		}
		if k := slices.IndexFunc(l.Files, func(f File) bool { return f.Path == path }); k >= 0 {
			return j, k
		}
	}
	return -1, -1
}

// inherit takes over what undoing gone's writing of the same file needs, where f has none of its
// own (it found the block already there).
func (f *File) inherit(gone File) {
	if f.Written == (Written{}) {
		f.Written = gone.Written
	}
	if f.Excluded == "" {
		f.Root, f.Excluded = gone.Root, gone.Excluded
	}
	f.MadeDir = cmp.Or(f.MadeDir, gone.MadeDir)
}

// outermostMissing is the outermost directory of dir's ancestry (dir included) that does not exist,
// "" when dir does.
func outermostMissing(dir string) string {
	missing := ""
	for {
		if _, err := os.Lstat(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return missing
		}
		missing = dir
		parent := filepath.Dir(dir)
		if parent == dir {
			return missing
		}
		dir = parent
	}
}

// removeEmptyDirs removes dir and its parents up to top while they are empty: directories a link
// created and nothing else has used since.
func removeEmptyDirs(dir, top string) {
	for {
		if rel, err := filepath.Rel(top, dir); err != nil || strings.HasPrefix(rel, "..") {
			return
		}
		if os.Remove(dir) != nil || dir == top {
			return
		}
		dir = filepath.Dir(dir)
	}
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
