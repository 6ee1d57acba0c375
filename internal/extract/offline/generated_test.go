package offline

import (
	"strings"
	"testing"
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
