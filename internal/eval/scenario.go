package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// ScenarioFile is the file that makes a directory of the suite a scenario.
const ScenarioFile = "scenario.yaml"

// Scenario is one directory of the suite: transcripts, an optional starting store and the
// expectations the store must meet after one pass.
type Scenario struct {
	Name        string // the directory, e.g. "03-pnpm-over-npm"
	Description string
	Today       time.Time // the pass runs at noon UTC of this day
	Project     string    // where the sessions happened
	Sources     []Source
	Limits      memory.Limits
	Prune       Prune
	// Held are the citations an earlier pass found to hold in the project tree (cite.Citation
	// strings, "path:docs/deploy.md"): a path, variable or package is stale only once it held.
	Held   []string
	Expect []Expectation

	files fs.FS // the scenario's directory
}

// Prune is the scenario's prune settings; zero keeps the eval's defaults (nothing retired for
// want of use).
type Prune struct {
	UnusedDays int `yaml:"unused_days"`
}

// Source is a directory of the scenario holding transcripts of one kind.
type Source struct {
	Kind    string `yaml:"kind"`
	Path    string `yaml:"path"`    // inside the scenario directory
	Project string `yaml:"project"` // for kinds whose files name no project (markdown, chat)
}

// Expectation is one thing the store must hold after the pass. Exactly one of the five texts is
// set; " | " separates alternatives (any one of them counts as the text).
type Expectation struct {
	Category   string `yaml:"category"`
	Mentions   string `yaml:"mentions"`    // some memory mentions it
	Absent     string `yaml:"absent"`      // no file of the store contains it
	ExactlyOne string `yaml:"exactly_one"` // exactly one memory mentions it
	NotCurrent string `yaml:"not_current"` // no memory presents it as current
	Retaught   string `yaml:"retaught"`    // the memory of this name records a session that taught it again
	Stale      string `yaml:"stale"`       // the memory of this name is marked stale on its index line
	Note       string `yaml:"note"`
}

// Kind is which of the four checks the expectation asks for, and its text.
func (e Expectation) Kind() (kind, text string) {
	switch {
	case e.Mentions != "":
		return "mentions", e.Mentions
	case e.Absent != "":
		return "absent", e.Absent
	case e.ExactlyOne != "":
		return "exactly_one", e.ExactlyOne
	case e.Retaught != "":
		return "retaught", e.Retaught
	case e.Stale != "":
		return "stale", e.Stale
	}
	return "not_current", e.NotCurrent
}

// SuiteError names the scenario file that keeps the suite from running.
type SuiteError struct {
	Path string // relative to the suite
	Err  error
}

func (e *SuiteError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *SuiteError) Unwrap() error { return e.Err }

// Suite is a set of scenarios, in directory order.
type Suite struct {
	Scenarios []*Scenario
}

// LoadSuite reads every directory of fsys that holds a scenario.yaml. Any scenario that does not
// parse, or whose transcripts or store are unusable, makes the whole suite fail with a SuiteError.
func LoadSuite(fsys fs.FS) (*Suite, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, &SuiteError{Path: ".", Err: err}
	}
	s := &Suite{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		file := path.Join(e.Name(), ScenarioFile)
		data, err := fs.ReadFile(fsys, file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &SuiteError{Path: file, Err: err}
		}
		sc, err := ParseScenario(e.Name(), data)
		if err != nil {
			return nil, &SuiteError{Path: file, Err: err}
		}
		if sc.files, err = fs.Sub(fsys, e.Name()); err != nil {
			return nil, &SuiteError{Path: file, Err: err}
		}
		if err := sc.checkFiles(); err != nil {
			return nil, &SuiteError{Path: file, Err: err}
		}
		s.Scenarios = append(s.Scenarios, sc)
	}
	if len(s.Scenarios) == 0 {
		return nil, &SuiteError{Path: ".", Err: fmt.Errorf("no scenario: no directory holds a %s", ScenarioFile)}
	}
	return s, nil
}

// scenarioFile is scenario.yaml as written.
type scenarioFile struct {
	Description string        `yaml:"description"`
	Today       string        `yaml:"today"`
	Project     string        `yaml:"project"`
	Sources     []Source      `yaml:"sources"`
	Limits      memory.Limits `yaml:"limits"` // zero caps keep the defaults
	Prune       Prune         `yaml:"prune"`
	Held        []string      `yaml:"held"`
	Expect      []Expectation `yaml:"expect"`
}

// ParseScenario reads a scenario.yaml strictly: unknown keys, a missing or malformed today, an
// unknown category, or an expectation that does not say exactly one thing are errors.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	var f scenarioFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty scenario")
		}
		return nil, yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one YAML document")
	}
	today, err := time.Parse(time.DateOnly, f.Today)
	if err != nil {
		return nil, fmt.Errorf("today: want a date like 2026-11-21, got %q", f.Today)
	}
	sc := &Scenario{
		Name:        name,
		Description: strings.TrimSpace(f.Description),
		Today:       today.Add(12 * time.Hour),
		Project:     f.Project,
		Sources:     f.Sources,
		Limits:      f.Limits,
		Prune:       f.Prune,
		Held:        f.Held,
		Expect:      f.Expect,
	}
	if sc.Prune.UnusedDays < 0 {
		return nil, fmt.Errorf("prune.unused_days: %d is negative", sc.Prune.UnusedDays)
	}
	if sc.Project == "" {
		sc.Project = "/home/eval/" + strings.TrimLeft(name, "0123456789-")
	}
	if !path.IsAbs(sc.Project) {
		return nil, fmt.Errorf("project: %q is not an absolute path", sc.Project)
	}
	if len(sc.Sources) == 0 {
		sc.Sources = []Source{{Kind: "claude", Path: "transcripts"}}
	}
	for i, src := range sc.Sources {
		if err := checkSource(src); err != nil {
			return nil, fmt.Errorf("sources[%d]: %w", i, err)
		}
	}
	if err := checkLimits(sc.Limits); err != nil {
		return nil, err
	}
	if len(sc.Expect) == 0 {
		return nil, errors.New("expect: a scenario needs at least one expectation")
	}
	for i, e := range sc.Expect {
		if err := checkExpectation(e); err != nil {
			return nil, fmt.Errorf("expect[%d]: %w", i, err)
		}
	}
	return sc, nil
}

// yamlError puts the decoder's complaints on one line, without Go type names.
func yamlError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		msgs[i] = goType.ReplaceAllString(m, "")
	}
	return errors.New(strings.Join(msgs, "; "))
}

var goType = lazyre.New(` in type [\w.]+`)

func checkSource(src Source) error {
	if _, err := transcript.New(src.Kind); err != nil {
		return fmt.Errorf("kind: %w", err)
	}
	if !fs.ValidPath(src.Path) || src.Path == "." {
		return fmt.Errorf("path: %q must name a directory inside the scenario", src.Path)
	}
	if src.Project != "" && !path.IsAbs(src.Project) {
		return fmt.Errorf("project: %q is not an absolute path", src.Project)
	}
	return nil
}

func checkLimits(l memory.Limits) error {
	for _, v := range []struct {
		key string
		n   int
	}{{"index_max_lines", l.IndexMaxLines}, {"index_max_bytes", l.IndexMaxBytes}, {"index_line_max", l.IndexLineMax}, {"memory_max_bytes", l.MemoryMaxBytes}} {
		if v.n < 0 {
			return fmt.Errorf("limits.%s: %d is negative", v.key, v.n)
		}
	}
	return nil
}

func checkExpectation(e Expectation) error {
	if !slices.Contains(Categories, e.Category) {
		return fmt.Errorf("category: %q is not one of %s", e.Category, strings.Join(Categories, ", "))
	}
	if e.Category == Archived {
		return fmt.Errorf("category: %q is checked automatically, not by expectations", e.Category)
	}
	set := 0
	for _, t := range []string{e.Mentions, e.Absent, e.ExactlyOne, e.NotCurrent, e.Retaught, e.Stale} {
		if t != "" {
			set++
		}
	}
	if set != 1 {
		return errors.New("want exactly one of mentions, absent, exactly_one, not_current, retaught, stale")
	}
	_, text := e.Kind()
	for _, alt := range alternatives(text) {
		if normalize(alt) == "" {
			return fmt.Errorf("%q: an alternative is empty", text)
		}
	}
	return nil
}

// checkFiles makes sure the pass will have material: every source directory exists and holds
// files, every JSON Lines transcript is JSON line by line, and the starting store is text.
func (sc *Scenario) checkFiles() error {
	for _, src := range sc.Sources {
		n := 0
		err := fs.WalkDir(sc.files, src.Path, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			n++
			if strings.HasSuffix(p, ".jsonl") {
				return checkJSONLines(sc.files, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%s holds no transcript", src.Path)
		}
	}
	return fs.WalkDir(sc.files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(p, storeDir+"/") {
			return err
		}
		_, err = fs.ReadFile(sc.files, p)
		return err
	})
}

func checkJSONLines(fsys fs.FS, p string) error {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return err
	}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && !json.Valid(line) {
			return fmt.Errorf("%s:%d: not a JSON record", p, i+1)
		}
	}
	return nil
}

// projectDir is the scenario's project tree, when it has one: laid out for the pass, which checks
// the memories' citations against it.
const projectDir = "project"

// storeDir is the scenario's starting memory store, when it has one.
const storeDir = "store"
