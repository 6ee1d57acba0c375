package cite

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/safefile"
)

// maxManifest bounds a manifest read: a Makefile or package.json over this is not read, and
// nothing it would define is reported gone.
const maxManifest = 1 << 20

// Project is a cheap view of a project's tree for one pass: every manifest is read at most once,
// on first need, and every path looked up at most once (a stat, never a read).
type Project struct {
	root  string
	stats map[string]presence
	mk    *makefile
	pj    *packageJSON
	env   *listing
	deps  *listing
	files map[string][]byte // manifests read, nil for one absent or unreadable
	done  map[string]bool   // manifests parsed
}

// NewProject is the project whose root directory is root. Nothing is read yet.
func NewProject(root string) *Project {
	return &Project{root: root, stats: map[string]presence{}, files: map[string][]byte{}, done: map[string]bool{}}
}

type presence int

const (
	unknown presence = iota // the tree could not tell (a permission error, …)
	present
	absent
)

// exists looks rel up under the root: a name ending in "/" must be a directory.
func (p *Project) exists(rel string) presence {
	if v, ok := p.stats[rel]; ok {
		return v
	}
	v := unknown
	fi, err := os.Stat(filepath.Join(p.root, filepath.FromSlash(strings.TrimSuffix(rel, "/"))))
	switch {
	case err == nil && (!strings.HasSuffix(rel, "/") || fi.IsDir()):
		v = present
	case err == nil:
		v = absent // a file where the memory names a directory
	case errors.Is(err, fs.ErrNotExist):
		v = absent
	}
	p.stats[rel] = v
	return v
}

// read reads a manifest of the root, once per pass however many checks need it; nil when it
// is absent, too large or unreadable.
func (p *Project) read(name string) []byte {
	if b, ok := p.files[name]; ok {
		return b
	}
	b, err := safefile.ReadFile(filepath.Join(p.root, name), maxManifest)
	if err != nil {
		b = nil
	}
	p.files[name] = b
	return b
}

type makefile struct {
	file    string
	targets map[string]bool
	open    bool // an include, a pattern rule or a computed name could define any target
}

var (
	ruleLine    = lazyre.New(`^([^\t#=:][^#=:]*?)\s*::?(?:[^=]|$)`)
	includeLine = lazyre.New(`^\s*-?s?include\s`)
)

// makefile is the project's Makefile as GNU make looks for it; nil when there is none.
func (p *Project) makefile() *makefile {
	if p.mk != nil || p.done["makefile"] {
		return p.mk
	}
	p.done["makefile"] = true
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		if p.exists(name) != present {
			continue
		}
		b := p.read(name)
		if b == nil {
			return nil
		}
		p.mk = parseMakefile(name, string(b))
		return p.mk
	}
	return nil
}

func parseMakefile(name, text string) *makefile {
	mk := &makefile{file: name, targets: map[string]bool{}}
	for line := range strings.Lines(strings.ReplaceAll(text, "\\\n", " ")) {
		line = strings.TrimRight(line, "\r\n")
		if includeLine.MatchString(line) {
			mk.open = true
			continue
		}
		m := ruleLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		names := m[1]
		if strings.HasPrefix(names, ".PHONY") {
			_, list, _ := strings.Cut(line, ":")
			names = list
		}
		for _, t := range strings.Fields(names) {
			if strings.ContainsAny(t, "%$(") {
				mk.open = true
				continue
			}
			mk.targets[t] = true
		}
	}
	return mk
}

type packageJSON struct {
	scripts    map[string]bool
	workspaces bool // a script may be a workspace's own
}

// packageJSON is the root package.json's scripts; nil when there is none or it does not parse.
func (p *Project) packageJSON() *packageJSON {
	if p.pj != nil || p.done["package.json#scripts"] {
		return p.pj
	}
	p.done["package.json#scripts"] = true
	b := p.read("package.json")
	if b == nil {
		return nil
	}
	var doc struct {
		Scripts    map[string]json.RawMessage `json:"scripts"`
		Workspaces json.RawMessage            `json:"workspaces"`
	}
	if json.Unmarshal(b, &doc) != nil {
		return nil
	}
	p.pj = &packageJSON{scripts: map[string]bool{}, workspaces: len(doc.Workspaces) > 0 && string(doc.Workspaces) != "null"}
	for k := range doc.Scripts {
		p.pj.scripts[k] = true
	}
	return p.pj
}

// listing is a set of names some files define, and which files were read.
type listing struct {
	names, vars map[string]bool
	files       []string
	read        bool
}

var envLine = lazyre.New(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=`)

// envFiles are the variables the project's example environment files list.
func (p *Project) envFiles() *listing {
	if p.env != nil {
		return p.env
	}
	p.env = &listing{vars: map[string]bool{}}
	for _, name := range []string{".env.example", ".env.sample", ".env.template", ".env.dist", "example.env"} {
		b := p.read(name)
		if b == nil {
			continue
		}
		p.env.read = true
		p.env.files = append(p.env.files, name)
		for line := range strings.Lines(string(b)) {
			if m := envLine.FindStringSubmatch(line); m != nil {
				p.env.vars[m[1]] = true
			}
		}
	}
	return p.env
}

var (
	goRequire  = lazyre.New(`(?m)^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]{2,}/[^\s]+)\s+v[0-9]`)
	reqLine    = lazyre.New(`(?m)^\s*([A-Za-z0-9][A-Za-z0-9._-]*)`)
	pyQuoted   = lazyre.New(`"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[<>=!~;].*)?"`)
	poetryDeps = lazyre.New(`(?m)^\[tool\.poetry\.(?:dev-)?dependencies\]\s*$`)
	tomlKey    = lazyre.New(`(?m)^([A-Za-z0-9][A-Za-z0-9._-]*)\s*=`)
)

// dependencies are the packages the project's manifests depend on.
func (p *Project) dependencies() *listing {
	if p.deps != nil {
		return p.deps
	}
	d := &listing{names: map[string]bool{}}
	p.deps = d
	note := func(name string) { d.read = true; d.files = append(d.files, name) }
	if b := p.read("go.mod"); b != nil {
		note("go.mod")
		for _, m := range goRequire.FindAllStringSubmatch(string(b), -1) {
			d.names[m[1]] = true
		}
	}
	if b := p.read("package.json"); b != nil {
		var doc map[string]json.RawMessage
		if json.Unmarshal(b, &doc) == nil {
			note("package.json")
			for _, key := range []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"} {
				var deps map[string]json.RawMessage
				if json.Unmarshal(doc[key], &deps) == nil {
					for k := range deps {
						d.names[k] = true
					}
				}
			}
		}
	}
	if b := p.read("requirements.txt"); b != nil {
		note("requirements.txt")
		for line := range strings.Lines(string(b)) {
			if m := reqLine.FindStringSubmatch(line); m != nil && !strings.HasPrefix(strings.TrimSpace(line), "-") {
				d.names[strings.ToLower(m[1])] = true
			}
		}
	}
	if b := p.read("pyproject.toml"); b != nil {
		note("pyproject.toml")
		text := string(b)
		for _, m := range pyQuoted.FindAllStringSubmatch(text, -1) {
			d.names[strings.ToLower(m[1])] = true
		}
		if loc := poetryDeps.FindStringIndex(text); loc != nil {
			section, _, _ := strings.Cut(text[loc[1]:], "\n[")
			for _, m := range tomlKey.FindAllStringSubmatch(section, -1) {
				d.names[strings.ToLower(m[1])] = true
			}
		}
	}
	return d
}
