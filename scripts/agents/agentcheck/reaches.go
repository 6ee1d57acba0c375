package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// linkedFile is where each agent reads the memory from.
var linkedFile = map[string]string{
	"claude":   "auto memory (MEMORY.md)",
	"codex":    "AGENTS.md",
	"gemini":   "GEMINI.md",
	"qwen":     "QWEN.md",
	"copilot":  ".github/copilot-instructions.md",
	"cline":    ".clinerules/dreamd-memory.md (dreamd link cline)",
	"opencode": "AGENTS.md (dreamd link opencode)",
	"kilo":     "AGENTS.md (dreamd link kilo)",
}

// userLink is where each agent reads the user store from.
var userLink = map[string]string{
	"claude":   "~/.claude/CLAUDE.md (dreamd link claude --user)",
	"codex":    "AGENTS.md",
	"gemini":   "GEMINI.md",
	"qwen":     "QWEN.md",
	"copilot":  ".github/copilot-instructions.md",
	"cline":    ".clinerules/dreamd-memory.md (dreamd link cline)",
	"opencode": "AGENTS.md (dreamd link opencode)",
	"kilo":     "AGENTS.md (dreamd link kilo)",
}

// mcpRecall is dreamd's recall tool under the name a CLI gives an MCP server's tool
// (mcp__dreamd__recall, dreamd__recall, mcp_dreamd_recall, Copilot CLI's dreamd-recall).
var mcpRecall = regexp.MustCompile(`"(?:mcp_{1,2})?dreamd(?:_{1,2}|-)recall"|mcp__dreamd__recall`)

// shellTool is the shell tool of each CLI, offered only in the requests of the session itself.
var shellTool = regexp.MustCompile(`"name":\s*"(Bash|bash|exec_command|shell|shell_command|run_shell_command|run_commands)"`)

func reaches(args []string) error {
	fs := newFlags("reaches")
	agent := fs.String("agent", "", "claude, codex or gemini")
	next := fs.String("next", "", "file listing the requests of the session after the pass")
	recall := fs.String("recall", "", "file listing the requests of the session asked to call recall")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c := checker{prefix: *agent + " reaches:"}

	bodies, err := readBodies(*next)
	if err != nil {
		return err
	}
	var main []string // the requests that carry the person's message: the session itself, not side calls
	for _, b := range bodies {
		if strings.Contains(b, messages["next"]) && shellTool.MatchString(b) {
			main = append(main, b)
		}
	}
	c.check("the CLI's next session sent a request", func() error {
		if len(main) == 0 {
			return fmt.Errorf("none of the %d requests carries %q", len(bodies), messages["next"])
		}
		return nil
	}())
	if len(main) == 0 {
		return nil
	}
	first := main[0]
	c.check("the memory reaches the next request through "+linkedFile[*agent], func() error {
		if !strings.Contains(strings.ToLower(first), strings.ToLower(memoryText)) {
			return fmt.Errorf("%q is not in the request", memoryText)
		}
		return nil
	}())
	c.check("the user store reaches the next request through "+userLink[*agent], func() error {
		if !strings.Contains(strings.ToLower(first), strings.ToLower(userText)) {
			return fmt.Errorf("%q is not in the request", userText)
		}
		return nil
	}())
	c.check("dreamd's MCP tools are offered", func() error {
		// Codex CLI offers an MCP server's tools as a namespace named mcp__<server>.
		codexNamespace := strings.Contains(first, `"name":"mcp__dreamd"`) && strings.Contains(first, `"name":"recall"`)
		if !mcpRecall.MatchString(first) && !codexNamespace {
			names := regexp.MustCompile(`"name":\s*"([^"]*dreamd[^"]*|recall)"`).FindAllString(first, -1)
			return fmt.Errorf("no dreamd recall tool in the request (dreamd names seen: %v)", names)
		}
		return nil
	}())

	bodies, err = readBodies(*recall)
	if err != nil {
		return err
	}
	c.check("the recall tool answers with the memory", func() error {
		var results []string
		for _, b := range bodies {
			results = append(results, toolResults(b)...)
		}
		for _, r := range results {
			l := strings.ToLower(r)
			if strings.Contains(l, "make lint") || strings.Contains(l, "make-lint") {
				return nil
			}
		}
		if len(results) == 0 {
			return errors.New("the CLI sent no tool result (did it call the tool? see fakeapi.log)")
		}
		return fmt.Errorf("no tool result mentions make lint: %q", clip(strings.Join(results, " | "), 400))
	}())
	return nil
}

// readBodies reads the request files listed in list, without their first (method and path) line.
func readBodies(list string) ([]string, error) {
	b, err := os.ReadFile(list)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range strings.Fields(string(b)) {
		if strings.HasSuffix(f, "-dreamd.json") {
			continue
		}
		body, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
		_, js, _ := strings.Cut(string(body), "\n")
		out = append(out, js)
	}
	return out, nil
}

// toolResults are the texts of the tool results in a request of any of the APIs: Anthropic
// tool_result blocks, Responses *_call_output items, Gemini functionResponse parts, Chat
// Completions "tool" messages.
func toolResults(body string) []string {
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			typ, _ := x["type"].(string)
			if role, _ := x["role"].(string); typ == "tool_result" || strings.HasSuffix(typ, "_call_output") || role == "tool" {
				b, _ := json.Marshal(x)
				out = append(out, string(b))
				return
			}
			if fr, ok := x["functionResponse"]; ok {
				b, _ := json.Marshal(fr)
				out = append(out, string(b))
				return
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}
