package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// binary is the dreamd binary the end-to-end tests run, built once by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dreamd-e2e-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "dreamd")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("building dreamd: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// sandbox is a temporary HOME with Claude Code and Codex transcript directories.
type sandbox struct {
	t      *testing.T
	home   string
	config string
	env    []string
}

func newSandbox(t *testing.T, configYAML string) *sandbox {
	t.Helper()
	home := t.TempDir()
	s := &sandbox{t: t, home: home}
	s.env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "OPENAI_API_KEY=", "TERM=dumb"}
	if configYAML != "" {
		s.config = filepath.Join(home, "dreamd.yaml")
		s.write("dreamd.yaml", configYAML)
	}
	return s
}

func (s *sandbox) path(rel string) string { return filepath.Join(s.home, filepath.FromSlash(rel)) }

func (s *sandbox) write(rel, content string) {
	s.t.Helper()
	p := s.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) appendTo(rel, content string) {
	s.t.Helper()
	f, err := os.OpenFile(s.path(rel), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		s.t.Fatal(err)
	}
}

// copyDir copies a directory of the repository into the sandbox.
func (s *sandbox) copyDir(src, rel string) {
	s.t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		r, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s.write(filepath.Join(rel, r), string(b))
		return nil
	})
	if err != nil {
		s.t.Fatal(err)
	}
}

// run runs dreamd in the sandbox and returns stdout, stderr and the exit code.
func (s *sandbox) run(args ...string) (string, string, int) {
	s.t.Helper()
	if s.config != "" {
		args = append([]string{"--config", s.config}, args...)
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = s.env
	cmd.Dir = s.home
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// snapshot returns every file under dir with its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			files[p] = string(b)
		}
		return nil
	})
	return files
}

const offlineConfig = `
sources:
  - {kind: claude, path: ~/.claude/projects}
  - {kind: codex, path: ~/.codex/sessions}
llm: {offline: true}
`

// examplesConfig reads every agent's bundled examples from the sandbox, as configs/demo.yaml does.
const examplesConfig = `
sources:
  - {kind: claude, path: ~/.claude/projects}
  - {kind: codex, path: ~/.codex/sessions}
  - {kind: gemini, path: ~/.gemini/tmp}
  - {kind: aider, path: ~/src/aider, project: /home/demo/shop}
  - {kind: markdown, path: ~/src/harness/shop, project: /home/demo/shop}
  - {kind: chat, path: ~/exports/blog, project: /home/demo/blog}
llm: {offline: true}
`

func copyExamples(s *sandbox) {
	ex := filepath.Join("..", "..", "examples")
	s.copyDir(filepath.Join(ex, "claude"), ".claude/projects")
	s.copyDir(filepath.Join(ex, "codex"), ".codex/sessions")
	s.copyDir(filepath.Join(ex, "gemini"), ".gemini/tmp")
	s.copyDir(filepath.Join(ex, "aider"), "src/aider")
	s.copyDir(filepath.Join(ex, "markdown", "shop"), "src/harness/shop")
	s.copyDir(filepath.Join(ex, "chat", "blog"), "exports/blog")
}

func TestEndToEndOfflineOnExamples(t *testing.T) {
	s := newSandbox(t, examplesConfig)
	copyExamples(s)
	before := snapshot(t, s.home)

	out, _, code := s.run("sessions", "--json")
	var listed struct {
		Sessions []struct{ Kind, Project, Store string }
		Skipped  []struct{ Path, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &listed); code != 0 || err != nil {
		t.Fatalf("sessions --json: exit %d, %v\n%s", code, err, out)
	}
	routes := map[string]string{}
	for _, l := range listed.Sessions {
		routes[l.Kind+" "+l.Project] = filepath.Base(filepath.Dir(l.Store))
	}
	for _, want := range []string{"claude /home/demo/shop", "claude /home/demo/blog", "codex /home/demo/shop", "gemini /home/demo/blog",
		"aider /home/demo/shop", "markdown /home/demo/shop", "chat /home/demo/blog"} {
		project := strings.Fields(want)[1]
		if routes[want] != "-home-demo-"+filepath.Base(project) {
			t.Errorf("%s is routed to %q (all routes: %v)", want, routes[want], routes)
		}
	}
	if len(listed.Skipped) != 1 || !strings.Contains(listed.Skipped[0].Reason, "subagent") {
		t.Errorf("skipped: %+v", listed.Skipped)
	}

	out, errOut, code := s.run("run", "--once", "--dry-run")
	if code != 0 {
		t.Fatalf("dry run exit %d\n%s\n%s", code, out, errOut)
	}
	// The report says which consolidator ran and why; at the default level nothing is logged.
	if !strings.Contains(out, "consolidator: offline (") || errOut != "" {
		t.Errorf("the report does not name the offline consolidator and why, or the pass logged at info:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	for _, want := range []string{"--- /dev/null", "+++ b/MEMORY.md", "@@", "dry run: nothing written", "testdata/golden"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry-run report lacks %q:\n%s", want, out)
		}
	}
	if after := snapshot(t, s.home); len(after) != len(before) {
		t.Fatalf("the dry run wrote files: %d before, %d after", len(before), len(after))
	}

	out, errOut, code = s.run("run", "--once")
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, out, errOut)
	}
	shop := s.path(".claude/projects/-home-demo-shop/memory")
	index, err := os.ReadFile(filepath.Join(shop, "MEMORY.md"))
	if err != nil {
		t.Fatalf("no index written: %v\n%s", err, out)
	}
	checkIndex(t, string(index))
	all := strings.ToLower(strings.Join(values(snapshot(t, shop)), "\n"))
	blogAll := strings.ToLower(strings.Join(values(snapshot(t, s.path(".claude/projects/-home-demo-blog/memory"))), "\n"))
	shopLessons := []string{"testdata/golden", "make lint", "postgres", "table-driven", // claude
		"integer cents", "banker's rounding", "stripe"} // codex, aider, markdown
	blogLessons := []string{"hugo --minify", "british english", "draft: true", "three sentences"} // claude, gemini, chat
	for _, lesson := range shopLessons {
		if !strings.Contains(all, lesson) || strings.Contains(blogAll, lesson) {
			t.Errorf("%q must be remembered in the shop store and only there", lesson)
		}
	}
	for _, lesson := range blogLessons {
		if !strings.Contains(blogAll, lesson) || strings.Contains(all, lesson) {
			t.Errorf("%q must be remembered in the blog store and only there", lesson)
		}
	}
	for _, leak := range []string{"ghp_", "hunter2", "subagent text"} {
		if strings.Contains(all, strings.ToLower(leak)) {
			t.Errorf("the shop store holds %q", leak)
		}
	}
	mentions := 0
	for path, content := range snapshot(t, shop) {
		if filepath.Base(path) != "MEMORY.md" && strings.Contains(content, "testdata/golden") {
			mentions++
		}
	}
	if mentions != 1 {
		t.Errorf("the lesson repeated across two sessions is in %d topic files, want 1", mentions)
	}

	out, _, code = s.run("run", "--once")
	if code != 0 || !strings.Contains(out, "nothing new") {
		t.Errorf("second pass: exit %d, want nothing new:\n%s", code, out)
	}
}

// checkIndex asserts docs/DESIGN.md's MEMORY.md form.
func checkIndex(t *testing.T, index string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(index, "\n"), "\n")
	if lines[0] != "# Memory" {
		t.Errorf("index starts with %q", lines[0])
	}
	entry := regexp.MustCompile(`^- \[([a-z0-9]+(?:-[a-z0-9]+)*)\]\(([a-z0-9-]+)\.md\) — .+$`)
	sections := []string{}
	for _, l := range lines[1:] {
		switch {
		case l == "":
		case strings.HasPrefix(l, "## "):
			sections = append(sections, l)
		case entry.MatchString(l):
			m := entry.FindStringSubmatch(l)
			if m[1] != m[2] {
				t.Errorf("entry links %s.md under name %s", m[2], m[1])
			}
		default:
			t.Errorf("index line is not an entry: %q", l)
		}
		if len([]rune(l)) > 150 {
			t.Errorf("index line over 150 characters: %q", l)
		}
	}
	order := map[string]int{"## User": 0, "## Feedback": 1, "## Project": 2, "## Reference": 3}
	for i := 1; i < len(sections); i++ {
		if order[sections[i-1]] >= order[sections[i]] {
			t.Errorf("sections out of order: %v", sections)
		}
	}
}

func values(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func llmConfig(base string) string {
	return `
sources:
  - {kind: claude, path: ~/.claude/projects}
llm: {base_url: "` + base + `", api_key: test-key, model: test-model, max_retries: 1, timeout: 10s}
`
}

const sessionA = `{"type":"user","uuid":"u1","sessionId":"aaaa1111-0000-4000-8000-000000000001","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:00Z","message":{"role":"user","content":"Remember that deploys go through ./deploy.sh, which refuses a dirty git tree."}}
{"type":"assistant","uuid":"a1","sessionId":"aaaa1111-0000-4000-8000-000000000001","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:05Z","message":{"role":"assistant","content":[{"type":"text","text":"Noted."}]}}
`

// shopStore is the memory store of /home/ana/shop in a sandbox's Claude Code projects directory,
// and sessionAPath the transcript of sessionA there.
const (
	shopStore    = ".claude/projects/-home-ana-shop/memory"
	sessionAPath = ".claude/projects/-home-ana-shop/aaaa1111-0000-4000-8000-000000000001.jsonl"
)

const sessionB = `{"type":"user","uuid":"u9","sessionId":"bbbb2222-0000-4000-8000-000000000002","cwd":"/home/ana/shop","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"From now on run make lint before every commit."}}
`

func TestEndToEndWithModel(t *testing.T) {
	create := llmtest.Ops("Added the deploy rule.", map[string]any{
		"action": "create", "name": "deploy-with-deploy-sh", "type": "project",
		"description": "Deploys go through ./deploy.sh, which refuses to run on a dirty git tree",
		"body":        "Deploys run through `./deploy.sh`; it refuses to run unless `git status` is clean.\n\n**Why:** the script tags the release from HEAD.\n**How to apply:** commit or stash before deploying.",
		"reason":      "explicit user statement", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"},
	})
	srv := llmtest.New(llmtest.Reply{Content: create}, llmtest.Reply{Content: create},
		llmtest.Reply{Content: llmtest.Ops("Lint rule.", map[string]any{
			"action": "create", "name": "lint-before-commit", "type": "feedback",
			"description": "Run make lint before every commit", "body": "Run `make lint` before every commit.",
			"reason": "explicit", "evidence": []string{"bbbb2222-0000-4000-8000-000000000002", "made-up-session"},
		})})
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	mem := s.path(shopStore)

	out, errOut, code := s.run("run", "--once", "--dry-run")
	if code != 0 {
		t.Fatalf("dry run exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "+++ b/deploy-with-deploy-sh.md") {
		t.Errorf("dry run shows no diff:\n%s", out)
	}
	if _, err := os.Stat(mem); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the dry run created the store")
	}
	if _, err := os.Stat(s.path(".local/state/dreamd")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the dry run created the state directory")
	}

	out, errOut, code = s.run("run", "--once")
	if code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d calls after dry run + run, want 2", len(reqs))
	}
	if !reqs[1].Strict("consolidation") {
		t.Errorf("the call was not a strict json_schema named consolidation: %s", reqs[1].ResponseFormat)
	}
	if !strings.Contains(reqs[1].User(), "deploys go through ./deploy.sh") {
		t.Errorf("the call did not carry the user's words")
	}
	topic, err := os.ReadFile(filepath.Join(mem, "deploy-with-deploy-sh.md"))
	if err != nil {
		t.Fatal(err)
	}
	wantTopic := regexp.MustCompile(`(?s)^---\nname: deploy-with-deploy-sh\ndescription: Deploys go through \./deploy\.sh, which refuses to run on a dirty git tree\ntype: project\ncreated: \d{4}-\d\d-\d\d\nupdated: \d{4}-\d\d-\d\d\nlearnt: 2026-11-18\nconfirmed: 2026-11-18\nsources: \[claude:aaaa1111-0000-4000-8000-000000000001\]\n---\nDeploys run through .*\*\*How to apply:\*\* commit or stash before deploying\.\n$`)
	if !wantTopic.Match(topic) { // learnt: the day of the session that taught it, not of the run
		t.Errorf("topic file form:\n%s", topic)
	}
	index, _ := os.ReadFile(filepath.Join(mem, "MEMORY.md"))
	if want := "# Memory\n\n## Project\n- [deploy-with-deploy-sh](deploy-with-deploy-sh.md) — Deploys go through ./deploy.sh, which refuses to run on a dirty git tree\n"; string(index) != want {
		t.Errorf("index:\n%q\nwant\n%q", index, want)
	}

	if out, _, code = s.run("run", "--once"); code != 0 || len(srv.Requests()) != 2 {
		t.Fatalf("a pass with nothing new made a call (exit %d, %d calls):\n%s", code, len(srv.Requests()), out)
	}

	s.write(".claude/projects/-home-ana-shop/bbbb2222-0000-4000-8000-000000000002.jsonl", sessionB)
	if out, errOut, code = s.run("run", "--once"); code != 0 {
		t.Fatalf("third pass exit %d\n%s\n%s", code, out, errOut)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d calls, want exactly one more", len(reqs))
	}
	if u := reqs[2].User(); !strings.Contains(u, "make lint") || strings.Contains(u, "deploys go through ./deploy.sh") {
		t.Errorf("the new call must carry only new material:\n%s", u)
	}
	lint, _ := os.ReadFile(filepath.Join(mem, "lint-before-commit.md"))
	if !strings.Contains(string(lint), "sources: [claude:bbbb2222-0000-4000-8000-000000000002]") {
		t.Errorf("evidence naming no digest session must be dropped:\n%s", lint)
	}
}

func TestEndToEndExitCodes(t *testing.T) {
	t.Run("unknown key", func(t *testing.T) {
		s := newSandbox(t, "colour: blue\n")
		_, errOut, code := s.run("run", "--once")
		if code != 2 || !strings.Contains(errOut, "colour") {
			t.Errorf("exit %d, stderr %q", code, errOut)
		}
	})
	t.Run("bad flag", func(t *testing.T) {
		s := newSandbox(t, offlineConfig)
		if _, _, code := s.run("run", "--once", "--bogus"); code != 2 {
			t.Errorf("exit %d, want 2", code)
		}
	})
	t.Run("unparseable response", func(t *testing.T) {
		srv := llmtest.New(llmtest.Reply{Content: "this is not json"})
		defer srv.Close()
		s := newSandbox(t, llmConfig(srv.BaseURL()))
		s.write(sessionAPath, sessionA)
		if _, errOut, code := s.run("run", "--once"); code != 1 {
			t.Errorf("exit %d, want 1: %s", code, errOut)
		}
		if _, err := os.Stat(s.path(shopStore + "/MEMORY.md")); err == nil {
			t.Error("a failed run wrote the index")
		}
	})
}

func TestEndToEndSharedFixtures(t *testing.T) {
	fixtures := filepath.Join("..", "..", "testdata", "thirdparty", "claude-code-log")
	abs, _ := filepath.Abs(fixtures)
	s := newSandbox(t, `
sources:
  - {kind: claude, path: "`+abs+`"}
  - {kind: codex, path: "`+filepath.Join(abs, "codex")+`"}
store: {mode: fixed, path: ~/mem}
llm: {offline: true}
`)
	out, errOut, code := s.run("sessions", "--json")
	if code != 0 {
		t.Fatalf("sessions exit %d: %s", code, errOut)
	}
	var listed struct {
		Sessions []struct{ Kind, ID, Path string }
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("sessions --json: %v\n%s", err, out)
	}
	kinds := map[string]int{}
	for _, s := range listed.Sessions {
		kinds[s.Kind]++
	}
	if kinds["claude"] == 0 || kinds["codex"] == 0 {
		t.Errorf("sessions found per kind: %v", kinds)
	}
	if out, errOut, code = s.run("run", "--once", "--dry-run"); code != 0 {
		t.Fatalf("dry run over the fixtures: exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestEndToEndEval(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	out, errOut, code := s.run("eval", "--offline", "--run", "^0[1-3]-", "--format", "json")
	if code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, errOut)
	}
	var rep struct {
		Consolidator string
		Scenarios    []struct{ Name string }
		Categories   []struct {
			Category      string
			Passed, Total int
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("eval --format json: %v\n%s", err, out)
	}
	if rep.Consolidator != "offline" || len(rep.Scenarios) != 3 || len(rep.Categories) == 0 {
		t.Errorf("eval report: %+v", rep)
	}
	if _, _, code := s.run("eval", "--suite", s.path("no-such-suite")); code != 2 {
		t.Errorf("a missing suite: exit %d, want 2", code)
	}
}
