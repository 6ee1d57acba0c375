package offline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/transcript"
)

// realSets are the public transcripts kept in the repository (their sources and licences are in
// internal/transcript/testdata/real/SOURCES.md and testdata/thirdparty/README.md), read through
// the transcript adapters as a pass reads them: tool calls, tool errors and answers included.
var realSets = []struct{ kind, dir string }{
	{"claude", "../../transcript/testdata/real/claude"},
	{"codex", "../../transcript/testdata/real/codex"},
	{"aider", "../../transcript/testdata/real/aider"},
	{"aider", "../../transcript/testdata/real/synthetic/aider"},
	{"gemini", "../../transcript/testdata/real/synthetic/gemini"},
	{"claude", "../../../testdata/thirdparty/claude-code-log"},
	{"codex", "../../../testdata/thirdparty/claude-code-log/codex"},
}

// realSessions reads every kept transcript into the sessions a pass would hand the consolidator.
func realSessions(t *testing.T) []extract.Session {
	t.Helper()
	var out []extract.Session
	for _, set := range realSets {
		a, err := transcript.New(set.kind)
		if err != nil {
			t.Fatal(err)
		}
		err = filepath.WalkDir(set.dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") && !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".json") ||
				set.kind == "claude" && strings.Contains(path, "/codex/") {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			r, err := a.Read(transcript.File{Kind: set.kind, Path: path, Size: info.Size(), ModTime: info.ModTime()}, transcript.Cursor{})
			if err != nil {
				return nil // not this adapter's file
			}
			for _, s := range r.Sessions {
				es := extract.Session{ID: s.ID, Source: s.Kind, Project: s.Project, Date: s.Ended}
				for _, turn := range s.Turns {
					es.Turns = append(es.Turns, extract.Turn{Role: turn.Role, Text: turn.Text, IsError: turn.IsError})
				}
				out = append(out, es)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// realWanted are the memories the kept transcripts give, each labelled by reading the session
// it came from: every one is a lesson a careful reader would want loaded. A memory not listed
// fails the test, so that each new kind of evidence is looked at on real material before it lands.
var realWanted = map[string]bool{
	// synthetic/aider architect: "add a retry with backoff to the http client; we never retry POST requests".
	"We never retry POST requests.": true,
	// aider/afi-core: the constraints each request restates in other words, asked again.
	"Keep all scaffolding agent-first and modular.": true,
	"Preserve AFI Codex and AOS alignment.":         true,
	// synthetic/gemini legacy: `pnpm test` ran and passed, after "the test runner here is pnpm, never npm".
	"To run the tests, run `pnpm test`.": true,
}

func TestRealTranscripts(t *testing.T) {
	sessions := realSessions(t)
	if len(sessions) < 10 {
		t.Fatalf("read only %d sessions from the kept transcripts", len(sessions))
	}
	res, err := New().Consolidate(t.Context(), extract.Request{Sessions: sessions})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res.Response.Summary)
	// aider/mozgoslav-ru is in Russian, which the rules read: no session is skipped for its
	// language, and its requests of the moment give no memory (none is labelled from it).
	if strings.Contains(res.Response.Summary, "a model reads them") {
		t.Errorf("the summary names a session as skipped for its language: %s", res.Response.Summary)
	}
	for _, op := range res.Response.Operations {
		if !realWanted[op.Description] {
			t.Errorf("unlabelled memory from the kept transcripts: %s %q (%s)", op.Action, op.Description, op.Reason)
		}
	}
}
