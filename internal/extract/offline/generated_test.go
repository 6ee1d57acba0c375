package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
)

// A task spec an orchestrator hands aider with --message (shape of a real public history: an
// "execution node" prompt with sections, scope lists and constraints) is not the person's words:
// none of its rules becomes a memory. A person's own long message still counts.
func TestGeneratedTurnsYieldNothing(t *testing.T) {
	spec := "# TASK CONTEXT: Change color theme to red\n\n**Task ID**: #8\n\n---\n\n## TASK OVERVIEW\n\n" +
		"Update the application's UI color theme so the primary brand color is red.\n\n## SCOPE DEFINITION\n\n" +
		"### IN SCOPE\n\n1. Update the primary theme color to red via the centralized tokens.\n2. Apply the change globally.\n\n" +
		"### Constraints\n- Prefer token changes over duplicative CSS rules.\n- Do not add new theming frameworks or heavy dependencies.\n" +
		"- Never hardcode red in individual components.\n- Always keep semantic colors unchanged.\n\n## YOUR ROLE: EXECUTION NODE\n\n" +
		strings.Repeat("Follow the plan above and implement the feature file by file. ", 12)
	res := run(t, nil, userSession("s1", day(10), spec))
	if ops := res.Response.Operations; len(ops) != 0 {
		t.Errorf("a generated task spec became %d memories: %+v", len(ops), briefs(ops))
	}

	own := "Remember that we never deploy on Fridays. " + strings.Repeat("Some context about why: the on-call rotation is thin at the end of the week and rollbacks take longer. ", 14)
	if res := run(t, nil, userSession("s2", day(10), own)); len(res.Response.Operations) != 1 {
		t.Errorf("a person's own long message lost its lesson: %+v", briefs(res.Response.Operations))
	}
}

// A custom slash command's prompt file, sent as the person's turn under the command's name (shape
// of a real Codex session's /butler-exec), holds the command's rules, not the person's: none
// becomes a memory, however often it runs. A message of the person's that opens with a path is theirs.
func TestCommandPromptYieldsNothing(t *testing.T) {
	prompt := "# /butler-exec — Execute a ButlerSpec\n\nPurpose: run a single ButlerSpec file with strict guardrails.\n\n" +
		"Execution steps:\n1) Read the spec.\n2) Apply only the specified actions. Do NOT touch other files or lines outside the action ranges.\n" +
		"Notes:\n- Never rewrite the spec file. Always keep edits confined to the declared target file.\n"
	// Run in two sessions, its rules read as the person's said again (standing.go).
	if ops := run(t, nil, userSession("s1", day(10), prompt), userSession("s2", day(11), prompt)).Response.Operations; len(ops) != 0 {
		t.Errorf("a command's prompt became %d memories: %+v", len(ops), briefs(ops))
	}
	for _, own := range []string{"# /deploy\nNever deploy on Fridays.", "## /review: always run make lint first"} {
		if ops := run(t, nil, userSession("s2", day(10), own)).Response.Operations; len(ops) != 0 {
			t.Errorf("%q became %d memories: %+v", own, len(ops), briefs(ops))
		}
	}
	if ops := run(t, nil, userSession("s3", day(10), "/etc/nginx holds the site config. Always reload nginx after editing it.")).Response.Operations; len(ops) == 0 {
		t.Error("a message that opens with a path lost its lesson")
	}
}

// TestPersonaPrompt keeps no memory of the agent cast in a role, in any language, whatever cue
// of time opens it; a rule that names a role for what to do is still kept.
func TestPersonaPrompt(t *testing.T) {
	for _, text := range []string{
		"Da ora lavora, analizza e agisci come un web developer full stack senior di esperienza decennale.",
		"From now on, act as a senior backend engineer with 15 years of experience.",
		"Always behave like an expert Go developer.",
		"以后你是一名资深前端工程师。",
		"De ahora en adelante actúa como un desarrollador senior.",
	} {
		ops := run(t, nil, userSession("s1", day(10), text), userSession("s2", day(11), text), userSession("s3", day(12), text)).Response.Operations
		ops = slices.DeleteFunc(ops, func(op extract.Operation) bool { return op.Type == memory.User }) // the language they write in
		if len(ops) != 0 {
			t.Errorf("%q became %d memories: %+v", text, len(ops), briefs(ops))
		}
	}
	if ops := run(t, nil, userSession("s1", day(10), "Always ask the backend developer before changing the API schema.")).Response.Operations; len(ops) != 1 {
		t.Errorf("a rule naming a role lost its memory: %+v", briefs(ops))
	}
}
