package transcript

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/slug"
)

// Where each agent files its transcripts, as far as the files' places tell which project they
// belong to. The routing (package phases) asks here and knows no agent's layout itself.
//
// Gemini CLI keeps a project's sessions in ~/.gemini/tmp/<folder>/chats/session-*.jsonl. Up to
// 0.3x the folder was the SHA-256 of the project's path; since then it is a short name
// ("shop-app", "shop-app-1") with a .project_root file naming the project, and
// ~/.gemini/projects.json maps every project path to its short name. A session's metadata line
// carries the projectHash (the SHA-256 of the path) and, for a sub-agent's, its directories.
//
// Claude Code keeps a project's sessions in ~/.claude/projects/<folder>/<session>.jsonl, the
// folder named by slug.Project from the directory the session started in.

// Placed is what a transcript's place says about its project.
type Placed struct {
	// Project is the project directory the agent's own files name for the transcript's folder
	// (Gemini CLI's .project_root or projects.json), "" when they name none.
	Project string
	// ProjectHash is the hex SHA-256 of the project path the agent filed the transcript under
	// (Gemini CLI), "" when unknown: the session belongs to the project whose ProjectHash it is.
	ProjectHash string
	// Folder is the Claude Code project folder (a name such as "-home-ana-shop") holding a
	// claude transcript, "" for any other.
	Folder string
}

// Locate reads what a transcript's place says about its project: its folder's marker files, and
// for Gemini CLI the projectHash of the session's metadata line.
func Locate(f File) Placed {
	switch f.Kind {
	case "gemini":
		return locateGemini(f)
	case "claude":
		return Placed{Folder: claudeFolder(f.Path)}
	}
	return Placed{}
}

// ProjectHash is the hex SHA-256 of a project path, as Gemini CLI names its projects by.
func ProjectHash(project string) string {
	sum := sha256.Sum256([]byte(project))
	return hex.EncodeToString(sum[:])
}

// ClaudeFolder is the Claude Code project folder of a project directory: see slug.Project.
func ClaudeFolder(project string) string { return slug.Project(project) }

// claudeFolder is the name of the Claude Code project folder that holds a transcript, or "" when
// the folder is not named as Claude Code names them.
func claudeFolder(path string) string {
	dir := filepath.Base(filepath.Dir(path))
	if !strings.HasPrefix(dir, "-") && !isDriveFolder(dir) {
		return ""
	}
	for i := 0; i < len(dir); i++ {
		if c := dir[i]; !(c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return dir
}

// isDriveFolder reports whether a folder name is a Windows project's ("C--Users-ana-shop").
func isDriveFolder(dir string) bool {
	return len(dir) > 3 && dir[0] >= 'A' && dir[0] <= 'Z' && dir[1] == '-' && dir[2] == '-'
}

// locateGemini places a Gemini CLI session: the project its folder's .project_root names, else
// the one projects.json maps to the folder's short name; and the project hash, from a hash
// folder's name or the session's metadata line.
func locateGemini(f File) Placed {
	folder := geminiFolder(f.Path)
	if folder == "" {
		return Placed{}
	}
	p := Placed{Project: geminiFolderProject(folder)}
	if name := filepath.Base(folder); isSHA256(name) {
		p.ProjectHash = name
	} else if !isGeminiLogs(f.Path) {
		p.ProjectHash = geminiMetaHash(f.open())
	}
	return p
}

// geminiFolder is the project folder (~/.gemini/tmp/<folder>) of a Gemini CLI session file:
// <folder>/chats/session-*, or <folder>/logs.json; "" for a file elsewhere.
func geminiFolder(path string) string {
	switch dir := filepath.Dir(path); {
	case isGeminiLogs(path):
		return dir
	case filepath.Base(dir) == "chats":
		return filepath.Dir(dir)
	}
	return ""
}

// geminiProject is the project the folder of a Gemini CLI session names, or "".
func geminiProject(path string) string {
	folder := geminiFolder(path)
	if folder == "" {
		return ""
	}
	return geminiFolderProject(folder)
}

// isSHA256 reports whether s is a hex SHA-256 (Gemini CLI's older project folder names).
func isSHA256(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// geminiFolderProject is the project a Gemini CLI project folder (~/.gemini/tmp/<folder>) belongs
// to: what its .project_root names, else the path ~/.gemini/projects.json maps to its name, else
// "". A session's folder is asked once per pass for every session in it, so answers are kept a
// little while.
func geminiFolderProject(folder string) string {
	now := time.Now()
	if c, ok := geminiFolders.Load(folder); ok && now.Sub(c.(cachedRoot).at) < rootTTL {
		return c.(cachedRoot).root
	}
	project := readProjectRoot(folder)
	if project == "" {
		// ~/.gemini/tmp/<folder> → ~/.gemini/projects.json
		project = geminiRegistry(filepath.Join(filepath.Dir(filepath.Dir(folder)), "projects.json"))[filepath.Base(folder)]
	}
	geminiFolders.Store(folder, cachedRoot{project, now})
	return project
}

var geminiFolders sync.Map // folder → cachedRoot

// readProjectRoot reads a Gemini CLI .project_root file: one absolute path.
func readProjectRoot(folder string) string {
	b, err := safefile.ReadFile(filepath.Join(folder, ".project_root"), 64<<10)
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) && !isWindowsPath(p) {
		return ""
	}
	return p
}

// geminiRegistry reads ~/.gemini/projects.json ({"projects": {path: short name}}) into short
// name → path; nil when it cannot be read.
func geminiRegistry(path string) map[string]string {
	b, err := safefile.ReadFile(path, 16<<20)
	if err != nil {
		return nil
	}
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if json.Unmarshal(b, &reg) != nil {
		return nil
	}
	out := make(map[string]string, len(reg.Projects))
	for p, name := range reg.Projects {
		if prev, ok := out[name]; !ok || p < prev { // a name held twice: the same answer every time
			out[name] = p
		}
	}
	return out
}

// geminiMetaHash is the projectHash a Gemini CLI session's metadata line records, or "".
func geminiMetaHash(path string) string {
	fh, _, err := safefile.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	line, _ := bufio.NewReaderSize(io.LimitReader(fh, 1<<20), 64<<10).ReadSlice('\n')
	if h := gjson.GetBytes(line, "projectHash").Str; isSHA256(h) {
		return h
	}
	return ""
}

// isWindowsPath reports whether p is an absolute Windows path ("C:\src", "c:/src").
func isWindowsPath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// GeminiProjects lists the projects a Gemini CLI home names, given its tmp folder (a gemini
// source's path): each folder's .project_root and every path in projects.json. A session filed by
// an older Gemini CLI under its project's hash is placed by matching it against them.
func GeminiProjects(tmp string) []string {
	var out []string
	roots, _ := filepath.Glob(filepath.Join(tmp, "*", ".project_root"))
	for _, r := range roots {
		if p := readProjectRoot(filepath.Dir(r)); p != "" {
			out = append(out, p)
		}
	}
	for _, p := range geminiRegistry(filepath.Join(filepath.Dir(tmp), "projects.json")) {
		out = append(out, p)
	}
	return out
}

// FiledElsewhere is the Claude Code folder (folder, from Locate) a claude transcript's sessions
// are to be stored by, or "" when its project's folder is the one: the folder it sits in when no
// record names a working directory (project ""), or when the folder is neither its project's nor
// one of a folder inside its project's: Claude Code filed the session there (a project that
// moved) and loads that folder's memory for it. A transcript outside root, the folder of Claude
// Code's project folders (a copy elsewhere), has no folder Claude Code loads.
func FiledElsewhere(f File, folder, project, root string) string {
	if project == "" {
		return folder
	}
	if filepath.Dir(filepath.Dir(f.Path)) != filepath.Clean(root) {
		return ""
	}
	own := ClaudeFolder(project)
	if folder == own || strings.HasPrefix(folder, cutFolder(own)+"-") {
		return "" // the project's, or a session started in a folder inside it (filed by its cwd)
	}
	return folder
}

// cutFolder is a Claude Code folder name without the hash a long one ends with.
func cutFolder(name string) string {
	if len(name) > slug.ClaudeMaxFolder {
		return name[:slug.ClaudeMaxFolder]
	}
	return name
}

// SameClaudeFolder reports whether Claude Code's own lookup takes the existing folder for the
// computed name: equal but for case, or a long name's cut with another hash.
func SameClaudeFolder(existing, name string) bool {
	return strings.EqualFold(existing, name) || len(name) > slug.ClaudeMaxFolder && strings.HasPrefix(existing, name[:slug.ClaudeMaxFolder]+"-")
}

// SourceProjects are the projects a source names: the one configured on it, and for Gemini CLI
// every project its home names (GeminiProjects).
func SourceProjects(s Source) []string {
	out := []string{s.Project}
	if s.Kind == "gemini" {
		out = append(out, GeminiProjects(s.Path)...)
	}
	return out
}

// Unplaced says why a transcript with only a project hash (Gemini CLI's) was not routed, and how
// to place it with a source of its own.
func Unplaced(f File) string {
	return "no project: its folder names none (no .project_root, not in ~/.gemini/projects.json) and its project hash matches no project dreamd knows; " +
		"place it with a source for its folder: {kind: " + f.Kind + ", path: " + filepath.Dir(filepath.Dir(f.Path)) + ", project: <the project's directory>}"
}
