package offline

import (
	"slices"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
)

// descriptions runs one session of turns and returns the descriptions it creates, by name.
func descriptions(t *testing.T, memories []extract.Memory, turns ...string) []string {
	t.Helper()
	var out []string
	for _, op := range run(t, memories, userSession("s1", day(18), turns...)).Response.Operations {
		out = append(out, string(op.Action)+" "+op.Description)
	}
	return out
}

func TestTurnClasses(t *testing.T) {
	tests := []struct {
		class string
		turns []string
		want  []string
	}{
		// a flag after the statement: "Keep that in mind."
		{"flag that", []string{"Sure. The nightly backup runs at 03:00 UTC and takes the replica offline. Keep that in mind."},
			[]string{"create The nightly backup runs at 03:00 UTC and takes the replica offline."}},
		{"flag that", []string{"ok. Cache keys carry the schema version; bumping it flushes everything. Please remember that."},
			[]string{"create Cache keys carry the schema version; bumping it flushes everything."}},
		{"flag that", []string{"The admin UI only works behind the VPN. Don't forget that!"},
			[]string{"create The admin UI only works behind the VPN."}},
		{"rule halfway through a sentence",
			[]string{"No need to roll back the .env file, but from now, NOTE that DO NOT REMOVE setting and env files without explicit permission."},
			[]string{"create DO NOT REMOVE setting and env files without explicit permission."}},
		{"flag that covers only the sentence before",
			[]string{"Fix the typo in the header. The admin UI only works behind the VPN. Remember this."},
			[]string{"create The admin UI only works behind the VPN."}},
		// a flag naming what it covers, in a later turn
		{"flag the", []string{"Exports are slow. The export job batches 500 rows per query.", "ok. Remember the batching."},
			[]string{"create The export job batches 500 rows per query."}},
		{"flag the", []string{"Tokens from the identity provider expire after 15 minutes; refresh tokens last a week.", "Keep the expiry times in mind."},
			[]string{"create Tokens from the identity provider expire after 15 minutes; refresh tokens last a week."}},
		{"flag the", []string{"Staging resets every Sunday night. Audit logs are kept 14 days.", "Please note the audit logs."},
			[]string{"create Audit logs are kept 14 days."}},
		// a sentence that explains the lesson before it
		{"explains", []string{"Always run `make generate` after editing the proto files. It regenerates the Go and TS clients."},
			[]string{"create Always run `make generate` after editing the proto files; It regenerates the Go and TS clients."}},
		{"explains", []string{"Never call the ledger API from a request handler. They rate-limit us per IP; batch jobs are exempt."},
			[]string{"create Never call the ledger API from a request handler; They rate-limit us per IP; batch jobs are exempt."}},
		{"explains", []string{"We use sqlc for queries. That means no ORM models anywhere."},
			[]string{"create We use sqlc for queries; That means no ORM models anywhere."}},
		// a clause joined by ';' that goes on with the lesson
		{"joined", []string{"Grace owns the mobile release train; ping her before cutting a build."},
			[]string{"create Grace owns the mobile release train; ping her before cutting a build."}},
		{"joined", []string{"We load secrets with sops from secrets/*.enc.yaml; they never go into the repo decrypted."},
			[]string{"create We load secrets with sops from secrets/*.enc.yaml; they never go into the repo decrypted."}},
		{"joined", []string{"Remember that the search index is rebuilt hourly; partial updates are not supported."},
			[]string{"create The search index is rebuilt hourly; partial updates are not supported."}},
		{"joined request of the day is left out", []string{"We validate payloads with zod; remove the manual checks."},
			[]string{"create We validate payloads with zod."}},
		// a question or a task after a lesson is no part of it
		{"not explained", []string{"We use sqlc for queries. It broke again right now.", "We use sqlc. Is that ok?",
			"We use sqlc for queries. That's great. It works."},
			[]string{"create We use sqlc for queries."}},
	}
	for _, tt := range tests {
		got := descriptions(t, nil, tt.turns...)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q\n got %q\nwant %q", tt.class, tt.turns, got, tt.want)
		}
	}
}

func TestRestatementClasses(t *testing.T) {
	tests := []struct {
		class    string
		memories []extract.Memory
		turns    []string
		want     []string
	}{
		// the same relation said two ways is one memory
		{"same place", nil, []string{"FYI fixtures live in testdata/fixtures.", "Remember testdata/fixtures is where the golden files go."},
			[]string{"create Fixtures live in testdata/fixtures."}},
		{"same value", nil, []string{"All amounts are stored in cents.", "Reminder: we keep every amount in cents in the ledger."},
			[]string{"create All amounts are stored in cents."}},
		{"same place, existing memory", []extract.Memory{{Name: "protos", Type: "project", Description: "Protos live in api/proto", Body: "Protos live in api/proto."}},
			[]string{"Note that api/proto is where the protobuf files go."}, []string{"reinforce "}},
		// a restatement that adds detail rewrites a one-paragraph memory
		{"enriched", []extract.Memory{{Name: "preview-url", Type: "project", Description: "Previews are at https://preview.example.dev", Body: "Previews are at https://preview.example.dev."}},
			[]string{"For next time: previews are at https://preview.example.dev and each one expires after seven days."},
			[]string{"update Previews are at https://preview.example.dev and each one expires after seven days."}},
		{"enriched", []extract.Memory{{Name: "go-version", Type: "project", Description: "We build with Go 1.26", Body: "We build with Go 1.26."}},
			[]string{"We build with Go 1.26 and vet every package with staticcheck in CI."},
			[]string{"update We build with Go 1.26 and vet every package with staticcheck in CI."}},
		{"a body with a reason is kept as it is", []extract.Memory{{Name: "go-version", Type: "project", Description: "We build with Go 1.26",
			Body: "We build with Go 1.26.\n\n**Why:** the range-over-func iterators."}},
			[]string{"We build with Go 1.26 and vet every package with staticcheck in CI."}, []string{"reinforce "}},
		{"too little new is a repeat", []extract.Memory{{Name: "go-version", Type: "project", Description: "We build with Go 1.26", Body: "We build with Go 1.26."}},
			[]string{"we build everything with Go 1.26"}, []string{"reinforce "}},
	}
	for _, tt := range tests {
		got := descriptions(t, tt.memories, tt.turns...)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q\n got %q\nwant %q", tt.class, tt.turns, got, tt.want)
		}
	}
}
