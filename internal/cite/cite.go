// Package cite checks what a memory names in the project — file paths, directories, make targets,
// package scripts, environment variables, packages — against the project's tree and manifests,
// without a model and without running anything.
//
// It is built for precision: a memory is told its citation no longer holds only when the project
// says so plainly. A make target or a package script is gone when the one manifest that would
// define it exists, is read whole and defines no such thing (and could not through an include or
// a pattern rule). A path, an environment variable or a package is gone only when it held before:
// a token that looks like a path but never named a file of the project (an example, a file to be
// written) is never reported. What held is the caller's to keep between passes (Held).
package cite

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// Kind is what a citation names.
type Kind string

// The kinds of citation.
const (
	Path    Kind = "path"    // a file or directory, relative to the project's root
	Target  Kind = "make"    // a make target
	Script  Kind = "script"  // a package.json script (npm/pnpm/yarn/bun run)
	Env     Kind = "env"     // an environment variable listed in .env.example and the like
	Package Kind = "package" // a dependency named in go.mod, package.json, requirements.txt, pyproject.toml
)

// Citation is one thing a memory names.
type Citation struct {
	Kind Kind   `json:"kind"`
	Name string `json:"name"`
}

// String is the citation as state files and reports key it: "make:lint", "path:scripts/deploy.sh".
func (c Citation) String() string { return string(c.Kind) + ":" + c.Name }

// Stale is a citation that no longer holds, with what the project says.
type Stale struct {
	Citation
	Why string `json:"why"`
}

var (
	codeSpan    = lazyre.New("`([^`\n]{1,200})`")
	makeCall    = lazyre.New(`^(?:g?make)((?:\s+[^\s;&|<>]+)+)`)
	scriptCall  = lazyre.New(`^(?:npm|pnpm|yarn|bun)\s+(?:run|run-script)\s+([A-Za-z0-9][A-Za-z0-9:_.-]*)`)
	npmBuiltin  = lazyre.New(`^npm\s+(test|start|stop|restart)\b`)
	envRef      = lazyre.New(`\$\{?([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])\}?`)
	envName     = lazyre.New(`^[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]$`)
	pathToken   = lazyre.New(`^(?:\./)?[A-Za-z0-9_.@-][A-Za-z0-9_.@+-]*(?:/[A-Za-z0-9_.@+-]+)*/?$`)
	prosePath   = lazyre.New(`(?:^|[\s(\["'])((?:\./)?[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+\.[A-Za-z0-9]{1,8}|\./[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*)(?:[\s)\]"',;:!?]|\.(?:\s|$)|$)`)
	packageWord = lazyre.New(`^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(?:/[A-Za-z0-9._~-]+)*$`)
	fileExt     = lazyre.New(`\.[A-Za-z0-9]{1,8}$`)
)

// Find lists what text names that the project could confirm or deny, each once, in a stable order.
// Commands count only inside code spans (`make lint`): "make sure" in prose is no target.
func Find(text string) []Citation {
	seen := map[Citation]bool{}
	var out []Citation
	add := func(k Kind, name string) {
		c := Citation{Kind: k, Name: name}
		if name != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		span := strings.TrimSpace(m[1])
		findInSpan(span, add)
	}
	prose := codeSpan.ReplaceAllString(text, " ")
	for _, m := range prosePath.FindAllStringSubmatch(prose, -1) {
		if p, ok := cleanPath(m[1]); ok {
			add(Path, p)
		}
	}
	for _, m := range envRef.FindAllStringSubmatch(text, -1) {
		add(Env, m[1])
	}
	slices.SortStableFunc(out, func(a, b Citation) int { return cmp.Compare(a.Kind, b.Kind) })
	return out
}

// findInSpan reads one code span: a make or package-script call, an environment variable, or
// path-looking and package-looking words.
func findInSpan(span string, add func(Kind, string)) {
	if m := makeCall.FindStringSubmatch(span); m != nil {
		for _, w := range strings.Fields(m[1]) {
			if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
				if w == "-C" || w == "-f" || strings.HasPrefix(w, "--directory") || strings.HasPrefix(w, "--file") {
					return // another directory's or file's targets: not the project's Makefile
				}
				continue
			}
			if pathToken.MatchString(w) && !strings.Contains(w, "/") {
				add(Target, w)
			}
		}
		return
	}
	if m := scriptCall.FindStringSubmatch(span); m != nil {
		if !strings.Contains(span, " -w") && !strings.Contains(span, "--workspace") && !strings.Contains(span, "--filter") &&
			!strings.Contains(span, "--prefix") && !strings.Contains(span, " -C") && !strings.Contains(span, "--cwd") {
			add(Script, m[1])
		}
		return
	}
	if m := npmBuiltin.FindStringSubmatch(span); m != nil {
		add(Script, m[1])
		return
	}
	if envName.MatchString(span) {
		add(Env, span)
		return
	}
	for _, w := range strings.Fields(span) {
		w = strings.Trim(w, `"',;()`)
		if p, ok := cleanPath(w); ok && (strings.Contains(p, "/") || fileExt.MatchString(p)) {
			add(Path, p)
		}
		if packageWord.MatchString(w) && len(w) > 1 {
			add(Package, w)
		}
	}
}

// cleanPath is w as a path relative to the project's root, when it can be one: no absolute
// path, home, URL, parent directory or glob.
func cleanPath(w string) (string, bool) {
	if !pathToken.MatchString(w) || strings.Contains(w, "..") || strings.Contains(w, "//") {
		return "", false
	}
	p := strings.TrimPrefix(w, "./")
	if p == "" || p == "." || strings.HasPrefix(p, "-") || strings.HasPrefix(p, "@") {
		return "", false
	}
	return p, true
}

// Held is what held at earlier checks of a project: the citations the project confirmed. A path,
// variable or package is reported gone only when it is in Held.
type Held map[string]bool

// Check tells, for cs, which the project confirms now (holding) and which it plainly denies
// (stale), using what held before (nil: nothing yet). Citations it can neither confirm nor deny
// are in neither list.
func (p *Project) Check(cs []Citation, held Held) (holding []Citation, stale []Stale) {
	for _, c := range cs {
		ok, why := p.holds(c)
		switch {
		case ok:
			holding = append(holding, c)
		case why != "" && (c.Kind == Target || c.Kind == Script):
			stale = append(stale, Stale{Citation: c, Why: why})
		case why != "" && held[c.String()]:
			stale = append(stale, Stale{Citation: c, Why: why + " (it did at an earlier pass)"})
		}
	}
	return holding, stale
}

// holds reports whether the project confirms c; when it does not, why says how the project
// denies it ("" when it cannot tell).
func (p *Project) holds(c Citation) (bool, string) {
	switch c.Kind {
	case Path:
		switch p.exists(c.Name) {
		case present:
			return true, ""
		case absent:
			return false, fmt.Sprintf("%s is not in the project", c.Name)
		}
	case Target:
		mk := p.makefile()
		switch {
		case mk == nil:
			return false, ""
		case mk.targets[c.Name]:
			return true, ""
		case !mk.open:
			return false, fmt.Sprintf("%s has no target %q", mk.file, c.Name)
		}
	case Script:
		pj := p.packageJSON()
		switch {
		case pj == nil:
			return false, ""
		case pj.scripts[c.Name]:
			return true, ""
		case !pj.workspaces:
			return false, fmt.Sprintf("package.json has no script %q", c.Name)
		}
	case Env:
		env := p.envFiles()
		switch {
		case env.vars[c.Name]:
			return true, ""
		case env.read:
			return false, fmt.Sprintf("%s no longer lists %s", strings.Join(env.files, ", "), c.Name)
		}
	case Package:
		deps := p.dependencies()
		switch {
		case deps.names[c.Name]:
			return true, ""
		case deps.read:
			return false, fmt.Sprintf("%s no longer depends on %s", strings.Join(deps.files, ", "), c.Name)
		}
	}
	return false, ""
}
