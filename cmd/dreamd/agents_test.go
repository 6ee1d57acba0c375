package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamd/dreamd/internal/slug"
)

// codexLesson is a Codex CLI rollout in project dir whose user teaches one lesson.
func codexLesson(dir string) string {
	return `{"timestamp":"2026-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"019a9000-0000-7000-8000-000000000001","timestamp":"2026-11-20T10:00:00.000Z","cwd":"` + dir + `","originator":"codex_cli_rs","cli_version":"0.58.0"}}
{"timestamp":"2026-11-20T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Remember that the integration tests need docker compose up -d db before they run."}]}}
{"timestamp":"2026-11-20T10:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"Remember that the integration tests need docker compose up -d db before they run.","kind":"plain"}}
{"timestamp":"2026-11-20T10:00:09.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Understood."}]}}
`
}

// TestMemoryReachesEveryAgent is the whole loop in a temporary HOME: a lesson taught in a Codex
// session is consolidated, then found in Codex's instruction file, in the preamble, by recall and
// through the MCP server driven by the SDK's own client; git status stays clean throughout.
func TestMemoryReachesEveryAgent(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	s := newSandbox(t, offlineConfig)
	project := s.path("src/shop")
	s.write("src/shop/README.md", "shop\n")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", project}, args...)...)
		cmd.Env = append(s.env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "README.md")
	git("commit", "-qm", "init")
	exclude, _ := os.ReadFile(filepath.Join(project, ".git", "info", "exclude"))

	if out, errOut, code := s.run("link", "codex", "--project", project); code != 0 || !strings.Contains(out, "AGENTS.md") {
		t.Fatalf("link: exit %d\n%s%s", code, out, errOut)
	}
	agents := filepath.Join(project, "AGENTS.md")
	if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("git status after link:\n%s", st)
	}

	s.write(".codex/sessions/2026/11/20/rollout-2026-11-20T10-00-00-019a9000-0000-7000-8000-000000000001.jsonl", codexLesson(project))
	if out, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	block, _ := os.ReadFile(agents)
	if !strings.Contains(string(block), "docker compose up -d db") || !strings.Contains(string(block), "<!-- dreamd:begin") {
		t.Fatalf("the lesson is not in Codex's AGENTS.md block:\n%s", block)
	}
	if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("git status after the pass:\n%s", st)
	}

	pre1, _, code := s.run("preamble", "--project", project, "--max-bytes", "2000")
	pre2, _, _ := s.run("preamble", "--project", project, "--max-bytes", "2000")
	if code != 0 || !strings.Contains(pre1, "docker compose up -d db") || pre1 != pre2 || len(pre1) > 2000 {
		t.Errorf("preamble (exit %d, %d bytes, stable %v):\n%s", code, len(pre1), pre1 == pre2, pre1)
	}

	out, errOut, code := s.run("recall", "how do I run the integration tests", "--project", project, "--format", "json")
	var rec struct {
		Results []struct{ Name, Snippet string }
	}
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil || len(rec.Results) == 0 {
		t.Fatalf("recall: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	lesson := rec.Results[0].Name
	if !strings.Contains(rec.Results[0].Snippet, "docker") {
		t.Errorf("recall's first result %+v is not the lesson", rec.Results[0])
	}

	// The MCP server, as an agent starts it in the project.
	cmd := exec.Command(binary, "--config", s.config, "mcp")
	cmd.Env, cmd.Dir = s.env, project
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("mcp initialize: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"list_memories", "read_memory", "recall", "remember"}; !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "recall", Arguments: map[string]any{"query": "integration tests docker"}})
	if err != nil || res.IsError {
		t.Fatalf("recall over mcp: %v %+v", err, res)
	}
	var got struct {
		Results []struct{ Name string }
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(raw, &got); err != nil || len(got.Results) == 0 || got.Results[0].Name != lesson {
		t.Errorf("recall over mcp = %s, want %s first", raw, lesson)
	}
	read, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_memory", Arguments: map[string]any{"name": lesson}})
	if err != nil || read.IsError || !strings.Contains(read.Content[0].(*mcp.TextContent).Text, "docker compose") {
		t.Errorf("read_memory: %v %+v", err, read)
	}
	resources, err := cs.ListResources(ctx, nil)
	if err != nil || len(resources.Resources) < 2 { // the topic file and MEMORY.md
		t.Errorf("resources: %v %+v", err, resources)
	}

	if out, errOut, code := s.run("unlink", "codex", "--project", project); code != 0 {
		t.Fatalf("unlink: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(agents); !os.IsNotExist(err) {
		t.Errorf("AGENTS.md, created by link, is still there after unlink: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(project, ".git", "info", "exclude")); string(after) != string(exclude) {
		t.Errorf(".git/info/exclude after unlink:\n%q\nwant\n%q", after, exclude)
	}
}

// TestRememberIsConsolidatedNeverWrittenRaw: a remembered note waits for a pass, which turns it
// into exactly one memory.
func TestRememberIsConsolidatedNeverWrittenRaw(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	project := s.path("src/blog")
	s.write("src/blog/index.md", "blog\n")
	storeDir := s.path(".claude/projects/" + slug.Project(project) + "/memory")

	if out, errOut, code := s.run("remember", "--project", project, "--type", "feedback", "Posts are written in British English."); code != 0 {
		t.Fatalf("remember: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(storeDir); !os.IsNotExist(err) {
		t.Fatalf("remember wrote into the store before any pass: %v", err)
	}
	if out, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(storeDir, "*.md"))
	var topics []string
	for _, f := range files {
		if filepath.Base(f) != "MEMORY.md" {
			topics = append(topics, f)
		}
	}
	if len(topics) != 1 {
		t.Fatalf("topic files after the pass: %v", topics)
	}
	if b, _ := os.ReadFile(topics[0]); !strings.Contains(string(b), "British English") || !strings.Contains(string(b), "type: feedback") {
		t.Errorf("the remembered note became:\n%s", b)
	}
	// Nothing new: the note is not consolidated twice.
	if out, _, _ := s.run("run", "--once"); !strings.Contains(out, "nothing new") {
		t.Errorf("second pass:\n%s", out)
	}
}
