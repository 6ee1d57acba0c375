package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Public transcripts written by the agents themselves, kept under testdata/real with their
// source and licence in testdata/real/SOURCES.md; testdata/real/synthetic holds minimal cases
// written by hand after the structure of real files whose licence did not allow keeping them.

// realFixture is one kept transcript and what reading it must give: the words the person typed,
// nothing else in a user turn, dates from the file's own records, no sub-thread read as a session.
type realFixture struct {
	name, kind, file string
	sessions         int      // sessions the file holds (a sub-thread holds none)
	user             []string // every user turn, in order, exactly as typed
	// forbidden are texts the agent or a tool put in a user-role record: no user turn may hold one
	// (checked with commonForbidden too).
	forbidden []string
	// foreign are texts of sub-threads (sidechains) that no turn of any role may hold.
	foreign []string
	// started is each session's start as the file writes it, in layout: it must occur in the file.
	started []string
	layout  string
	minCut  int // records the file files as the user's that are not the person's words
}

// commonForbidden are injection markers of every agent: none is ever the person's words.
var commonForbidden = []string{
	"<command-message>", "<command-name>", "<command-args>", "<system-reminder>", "<local-command-stdout>",
	"<environment_context>", "environment_context>", "<user_instructions>", "<INSTRUCTIONS>", "# AGENTS.md instructions",
	"I will instruct the editor", "Stop hook feedback", "Caveat: The messages below",
	"# Question:", "# Relevant docs:", "# Announcement lines", "# Fix any errors below",
	"System: Please continue.", "[Function Response:",
}

const (
	claudeTime = "2006-01-02T15:04:05.000Z"
	aiderTime  = "2006-01-02 15:04:05"
)

var realFixtures = []realFixture{
	{
		name: "aider-ai-aider", kind: "aider", file: "aider/aider-ai-aider.chat.history.md",
		sessions: 2,
		user: []string{
			"is there a portable way to know the user's preferred language?",
			"if we can get a language, add it to `platform_text`. but don't assume english as a fallback, just omit the language info. like the other platform_text entries, briefly indicate how the value was obtained.",
			"how are you",
		},
		started: []string{"2024-08-06 09:44:24", "2024-08-10 14:09:30"}, layout: aiderTime,
		minCut: 3, // the repeated /ask request, the lint reflection, the /help prompt
	},
	{
		name: "aider-ai-aider-test", kind: "aider", file: "aider/aider-ai-aider-test.chat.history.md",
		// /test says how the project is tested: the person's command. Its output, which aider logs
		// with "> " before the first line only, is aider's, not the model's reply.
		sessions: 1,
		user: []string{
			"/test pytest tests/basic/test_repomap.py",
			"don't use `IgnorantTemporaryDirectory` use GitTemporaryDirectory",
		},
		foreign: []string{"platform darwin -- Python 3.12.4", "collected 7 items", "def test_get_repo_map_subtree_only", "1 failed, 6 passed"},
		started: []string{"2024-08-06 08:47:10"}, layout: aiderTime,
	},
	{
		name: "mozgoslav-ru", kind: "aider", file: "aider/mozgoslav-ru.chat.history.md",
		// A session in Russian (aider 0.86.2, a local model whose replies open with a thinking
		// block): the person's words are kept as typed; the offline consolidator names the
		// language as skipped.
		sessions: 1,
		user: []string{
			"hi",
			"Про что проект мозгослав и на каком этапе сейчас RAG?",
			"А почитай про хоткей и push-to-talk. Там почти все готово, но почему-то текст подставляется один и тот же, не понимаю почему, может где баг?",
		},
		started: []string{"2026-04-22 22:40:47"}, layout: aiderTime,
	},
	{
		name: "afi-core", kind: "aider", file: "aider/afi-core.chat.history.md",
		// One session (aider 0.85.2) of four requests that each restate their constraints in other
		// words ("Preserve agent-first design", "Keep all scaffolding agent-first and modular"),
		// the second the first sent again with more.
		sessions: 1,
		user: []string{
			"You are auditing the AFI Protocol's core repository (afi-core) to prepare it for finalization.\nObjectives:\n1. Verify ESM compliance (ECMAScript Modules)\n2. Identify structural inconsistencies\n3. Flag missing or incomplete components (schemas, DAGs, CLI entrypoints)\n4. Suggest a safe, modular path to 100% completion\nConstraints:\n- Preserve agent-first design\n- Keep all existing scaffolding aligned with AFI Codex and AOS",
			"You are auditing the AFI Protocol's core repository (afi-core) to prepare it for finalization.\n\nObjectives:\n1. Verify ESM compliance (ECMAScript Modules)\n2. Identify structural inconsistencies\n3. Flag missing or incomplete components (schemas, DAGs, CLI entrypoints)\n4. Suggest a safe, modular path to 100% completion\n\nConstraints:\n- Preserve agent-first design\n- Keep all existing scaffolding aligned with AFI Codex and AOS\n\nProvide:\n- A prioritized list of issues\n- Recommended file/folder restructuring if needed\n- Safe, incremental changes to reach 100% completion\n- Search/replace or code suggestions where applicable",
			"Continue the AFI Protocol audit and prepare `dist/index.js` as a proper ESM entrypoint.\n- Ensure it aligns with AFI Codex and AOS.\n- Export all core modules, validators, and schemas.\n- Suggest minimal DAG export stubs if needed.\n- Keep all scaffolding agent-first and modular.",
			"Now audit the overall structure and provide:\n1. A final checklist to reach 100% AFI-core readiness.\n2. Confirm ESM compliance across all files you have.\n3. Identify any DAG, schema, or validator gaps.\n4. Suggest the safest modular path to complete and publish the repo.\n\nConstraints:\n- Preserve AFI Codex and AOS alignment.\n- Avoid unnecessary implementation logic\u2014focus on scaffolding and modular integrity.",
		},
		started: []string{"2025-08-04 13:59:12"}, layout: aiderTime,
	},
	{
		name: "zen-mcp-server", kind: "aider", file: "aider/zen-mcp-server.chat.history.md",
		// Every input is an in-chat command. /add says which files matter: the person's, kept as
		// typed; /copy-context and the like drive aider and are left out.
		sessions: 2,
		user: []string{
			"/add **",
			"/add " + strings.Join(zenAdd1, "\n  "),
			"/add  " + strings.Join(zenAdd2, "\n  "),
		},
	},
	{
		name: "synthetic-architect", kind: "aider", file: "synthetic/aider/architect.chat.history.md",
		sessions:  1,
		user:      []string{"add a retry with backoff to the http client; we never retry POST requests"},
		forbidden: []string{"To add the retry, change", "Wrap `Do` in a loop"},
		started:   []string{"2026-02-11 16:40:05"}, layout: aiderTime,
		minCut: 1,
	},
	{
		name: "ccv-init", kind: "claude", file: "claude/ccv-init.jsonl",
		// A bare /init teaches nothing; its expansion is Claude Code's prompt.
		sessions: 1, user: nil,
		forbidden: []string{"Please analyze this codebase and create a CLAUDE.md file"},
		started:   []string{"2025-09-03T00:47:21.540Z"}, layout: claudeTime,
		minCut: 1,
	},
	{
		name: "ccv-orchestrator", kind: "claude", file: "claude/ccv-orchestrator.jsonl",
		sessions:  1,
		user:      []string{"/orchestrator @CLAUDE.md を最新の状態にアップデートしてください"},
		forbidden: []string{"Split complex tasks into independent subtasks"},
		foreign: []string{
			"Examine the package.json file(s)", "I'll examine the package.json files", "## Package.json Analysis Summary",
			"Analyze the current project structure in", "I'll analyze the current project structure",
			"Based on my analysis of the current project structure",
		},
		started: []string{"2025-09-07T09:52:03.071Z"}, layout: claudeTime,
		minCut: 3,
	},
	{
		name: "crl-stop-hook", kind: "claude", file: "claude/crl-stop-hook.jsonl",
		sessions:  1,
		user:      []string{`Read test.txt and change the content to "modified content". Commit the change, then stop.`},
		forbidden: []string{"Task Completion Check", "Whenever you read a file, you should consider whether it would be considered malware"},
		started:   []string{"2026-01-21T06:24:40.005Z"}, layout: claudeTime,
		minCut: 1,
	},
	{
		name: "codex-homelab", kind: "codex", file: "codex/rollout-2025-12-28T12-18-30-019b64e5-57fa-7463-b644-fba7e456f905.jsonl",
		sessions:  1,
		user:      []string{"can you analyse the MD files in this directory and determine if the info we have is clear enough to start planning the migration?"},
		forbidden: []string{"## Skills", "skill-creator", "<approval_policy>", "/Users/macmini/Code/homelab-migration"},
		started:   []string{"2025-12-28T12:21:44.491Z"}, layout: claudeTime,
		minCut: 2, // the AGENTS.md and environment_context records
	},
	{
		name: "synthetic-gemini-legacy", kind: "gemini",
		file:      "synthetic/gemini/9c4e2a7b1d3f5e6a8b0c2d4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a/chats/session-2026-03-02T10-15-4f1a9c2e.json",
		sessions:  1,
		user:      []string{"the test runner here is pnpm, never npm", "summarise the notes file", "run the linter", "run the linter"},
		forbidden: []string{"Always deploy on Fridays", "/home/dev/shop/notes.md"},
		started:   []string{"2026-03-02T10:15:04.120Z"}, layout: claudeTime,
		minCut: 2,
	},
	{
		name: "synthetic-gemini-subagent", kind: "gemini",
		file:     "synthetic/gemini/9c4e2a7b1d3f5e6a8b0c2d4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a/chats/session-2026-03-02T10-19-8d2b6f01.json",
		sessions: 0, // "kind": "subagent": its prompt is the main agent's
		foreign:  []string{"Investigate the codebase and list every place", "src/db.ts and scripts/migrate.ts"},
	},
}

// The files the person added with /add in zen-mcp-server's history, under its checkout.
var (
	zenAdd1 = zenPaths("utils/file_utils.py", "utils/token_utils.py", "utils/model_context.py", "tools/shared/base_tool.py",
		"server.py", "utils/file_types.py", "providers/shared/model_capabilities.py", "config.py")
	zenAdd2 = zenPaths("server.py", "utils/file_utils.py", "utils/model_context.py", "utils/token_utils.py", "utils/file_types.py",
		"tools/shared/base_tool.py", "providers/gemini.py", "providers/registries/gemini.py",
		"providers/shared/model_capabilities.py", "conf/gemini_models.json", "config.py")
)

func zenPaths(rel ...string) []string {
	var out []string
	for _, r := range rel {
		out = append(out, "/home/dragonfsky/git/github/zen-mcp-server/"+r)
	}
	return out
}

// knownGaps are checks the adapters fail today, keyed "<fixture>/<check>[/<detail>]". They are
// owned by the adapters' maintainers: the test logs them instead of failing, and fails once a gap
// is gone so that its entry is removed.
var knownGaps = map[string]string{}

func realPath(file string) string { return filepath.Join("testdata", "real", filepath.FromSlash(file)) }

func readReal(t *testing.T, fx realFixture) (Reading, string, string) {
	t.Helper()
	root := t.TempDir()
	f := copyFile(t, fx.kind, realPath(fx.file), root, filepath.Base(fx.file), "")
	data, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	return mustRead(t, f, Cursor{}), string(data), root
}

// TestRealGolden reads each kept transcript whole and compares the sessions with its golden file
// under testdata/real/golden (go test -update rewrites them).
func TestRealGolden(t *testing.T) {
	for _, fx := range realFixtures {
		name := "real-" + fx.kind + "-" + fx.name + ".golden"
		t.Run(name, func(t *testing.T) {
			r, _, root := readReal(t, fx)
			checkGolden(t, filepath.Join("..", "real", "golden", name), render(r, root))
		})
	}
}

// TestRealAttribution encodes the attribution rules on the kept transcripts.
func TestRealAttribution(t *testing.T) {
	seen := map[string]bool{}
	for _, fx := range realFixtures {
		t.Run(fx.name, func(t *testing.T) {
			r, data, _ := readReal(t, fx)
			check := func(key string, ok bool, format string, args ...any) {
				t.Helper()
				key = fx.name + "/" + key
				seen[key] = true
				gap, known := knownGaps[key]
				switch {
				case !ok && known:
					t.Logf("known gap %s: %s (%s)", key, gap, fmt.Sprintf(format, args...))
				case !ok:
					t.Errorf("%s: "+format, append([]any{key}, args...)...)
				case known:
					t.Errorf("known gap %s no longer occurs: remove it from knownGaps", key)
				}
			}

			check("sessions", len(r.Sessions) == fx.sessions, "%d sessions, want %d", len(r.Sessions), fx.sessions)

			var user []string
			cut := 0
			for _, s := range r.Sessions {
				cut += s.Cut
				for _, turn := range s.Turns {
					if turn.Role == User {
						user = append(user, turn.Text)
					}
				}
			}
			check("user", slices.Equal(user, fx.user), "user turns\n%q\nwant\n%q", user, fx.user)
			check("cut", cut >= fx.minCut, "%d records cut, want at least %d", cut, fx.minCut)

			for _, marker := range slices.Concat(commonForbidden, fx.forbidden) {
				var hit []string
				for _, u := range user {
					if strings.Contains(u, marker) {
						hit = append(hit, clip(u, 120))
					}
				}
				if len(hit) > 0 || slices.Contains(fx.forbidden, marker) {
					check("forbidden/"+marker, len(hit) == 0, "user turns hold %q: %q", marker, hit)
				}
			}

			if len(fx.foreign) > 0 {
				var hit []string
				for _, s := range r.Sessions {
					for _, turn := range s.Turns {
						for _, text := range fx.foreign {
							if strings.Contains(turn.Text, text) {
								hit = append(hit, string(turn.Role)+": "+clip(turn.Text, 80))
							}
						}
					}
				}
				check("foreign", len(hit) == 0, "sub-thread text read as turns: %q", hit)
			}

			// Dates come from the transcript's own records: each expected start is written in the
			// file, and every session starts at one of them (an aider session at its header's time).
			if fx.layout != "" {
				ok, why := true, ""
				for _, want := range fx.started {
					if !strings.Contains(data, want) {
						t.Fatalf("expected start %q is not in %s", want, fx.file)
					}
				}
				if len(r.Sessions) < len(fx.started) {
					ok, why = false, fmt.Sprintf("%d sessions for %d expected starts", len(r.Sessions), len(fx.started))
				}
				for _, s := range r.Sessions {
					got := s.Started.UTC().Format(fx.layout)
					if !slices.Contains(fx.started, got) {
						ok, why = false, fmt.Sprintf("session %s starts %s, not a time the file records (%q)", s.ID, got, fx.started)
						break
					}
					if fx.kind == "aider" && s.ID != aiderIDPrefix+s.Started.Format(aiderIDTime) {
						ok, why = false, fmt.Sprintf("session %s starts %s: id and start disagree", s.ID, got)
						break
					}
				}
				check("dates", ok, "%s", why)
			}
		})
	}
	for key := range knownGaps {
		if !seen[key] {
			t.Errorf("knownGaps entry %q matches no check", key)
		}
	}
}

// TestRealSources checks that every kept file is named in SOURCES.md, so none is kept without
// its source and licence.
func TestRealSources(t *testing.T) {
	sources, err := os.ReadFile(realPath("SOURCES.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, fx := range realFixtures {
		if !strings.Contains(string(sources), fx.file) {
			t.Errorf("%s is not listed in testdata/real/SOURCES.md", fx.file)
		}
		if _, err := os.Stat(realPath(fx.file)); err != nil {
			t.Error(err)
		}
	}
}
