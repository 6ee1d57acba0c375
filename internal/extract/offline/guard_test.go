package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
)

// TestRepeatedGuard keeps what the person asked, in two messages and in other words, to keep as it
// is; a guard said once, sent again word for word, said in another project, or sharing only a
// word in passing stays a request for the edit at hand.
func TestRepeatedGuard(t *testing.T) {
	other := userSession("o1", day(17), "Garde le copywriting de la page.")
	other.Project = "/home/ana/blog"
	aider := func(s extract.Session) extract.Session { s.Source = "aider"; return s }
	tests := []struct {
		name     string
		sessions []extract.Session
		want     string // the memory's description, "" for none
		evidence string
	}{
		{"French, two sessions, other words",
			[]extract.Session{
				userSession("s1", day(16), "Refais la page d'accueil. Garde 100% du copywriting de Mistral."),
				userSession("s2", day(18), "Ajoute la FAQ. INTERDICTION de changer mon copywriting (Mistral)."),
			}, "INTERDICTION de changer mon copywriting (Mistral)", "s1,s2"},
		{"English, one session, a later task",
			[]extract.Session{aider(userSession("s1", day(16),
				"Audit the repo.\n- Preserve agent-first design\n- Keep all existing scaffolding aligned with AFI Codex",
				"Now prepare dist/index.js.\n- Keep all scaffolding agent-first and modular."))},
			"Keep all scaffolding agent-first and modular", "s1"},
		{"Spanish", []extract.Session{
			userSession("s1", day(16), "Arregla el menú. No toques el archivo estilos.css."),
			userSession("s2", day(18), "Mantén estilos.css como está."),
		}, "Mantén estilos.css como está", "s1,s2"},
		{"German", []extract.Session{
			userSession("s1", day(16), "Behalte die Datenbankschicht bei."),
			userSession("s2", day(18), "Ändere die Datenbankschicht nicht."),
		}, "Ändere die Datenbankschicht nicht", "s1,s2"},
		{"Dutch", []extract.Session{
			userSession("s1", day(16), "Behoud de bestaande migraties."),
			userSession("s2", day(18), "Verander de migraties niet."),
		}, "Verander de migraties niet", "s1,s2"},
		{"Portuguese", []extract.Session{
			userSession("s1", day(16), "Não mexa no arquivo schema.prisma."),
			userSession("s2", day(18), "Mantenha o schema.prisma intacto."),
		}, "Mantenha o schema.prisma intacto", "s1,s2"},
		{"Vietnamese", []extract.Session{
			userSession("s1", day(16), "Giữ nguyên file config.yaml."),
			userSession("s2", day(18), "Đừng sửa config.yaml nhé."),
		}, "Đừng sửa config.yaml nhé", "s1,s2"},
		{"Chinese, keyed by the names", []extract.Session{
			userSession("s1", day(16), "保留 README.md 的格式。"),
			userSession("s2", day(18), "不要改 README.md。"),
		}, "不要改 README.md", "s1,s2"},
		// Near misses: none of these is a constraint the person holds.
		{"said once", []extract.Session{userSession("s1", day(16), "Garde 100% du copywriting de Mistral.")}, "", ""},
		{"the same prompt sent again word for word", []extract.Session{
			userSession("s1", day(16), "Keep all existing scaffolding aligned with AFI Codex.", "Keep all existing scaffolding aligned with AFI Codex."),
		}, "", ""},
		{"a prompt sent again, revised: two of its guards repeat one earlier message", []extract.Session{
			userSession("s1", day(16), "Conserve ma balise <video> optimisée. Garde les titres 'Chartres' et 'Dreux'.",
				"Ça a échoué. Garde ma balise <video> actuelle. Garde les titres sur 'Chartres', 'Dreux'."),
		}, "", ""},
		{"another project", []extract.Session{
			other, userSession("s2", day(18), "Garde le copywriting de l'accueil."),
		}, "", ""},
		{"a word in passing, not what is kept", []extract.Session{
			userSession("s1", day(16), "NE TOUCHE PAS aux formulaires de diagnostic ou aux boutons Stripe."),
			userSession("s2", day(18), "Garde exactement le même design, les mêmes composants, la même vidéo et le même formulaire que sur index.astro."),
		}, "", ""},
		{"a question", []extract.Session{
			userSession("s1", day(16), "Keep the changelog format."),
			userSession("s2", day(18), "Keep the changelog format or switch?"),
		}, "", ""},
		{"not opened by a guard", []extract.Session{
			userSession("s1", day(16), "Keep the changelog format."),
			userSession("s2", day(18), "Vérifie que le changelog format reste lisible."),
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := notWritten(run(t, nil, tt.sessions...).Response.Operations)
			if tt.want == "" {
				if len(ops) != 0 {
					t.Errorf("operations = %+v, want none", briefs(ops))
				}
				return
			}
			if len(ops) != 1 || strings.TrimSuffix(ops[0].Description, ".") != tt.want || !sameIDs(ops[0].Evidence, tt.evidence) ||
				!strings.Contains(ops[0].Body, "again") {
				t.Errorf("operations = %+v (body %q), want %q with evidence %s", briefs(ops), firstBody(ops), tt.want, tt.evidence)
			}
		})
	}
}

// TestRepeatedGuardReinforces adds no second memory when the earlier saying was itself kept: the
// repeat is evidence for it.
func TestRepeatedGuardReinforces(t *testing.T) {
	ops := run(t, nil,
		userSession("s1", day(16), "INTERDICTION de changer mon copywriting (Mistral)."),
		userSession("s2", day(18), "Garde le copywriting de Mistral intact, ne modifie que les nouveaux fichiers."),
	).Response.Operations
	if len(ops) != 1 || !strings.HasPrefix(ops[0].Description, "INTERDICTION") || strings.Join(ops[0].Evidence, ",") != "s1,s2" {
		t.Errorf("operations = %+v, want the first rule with both sessions as evidence", briefs(ops))
	}
}

func firstBody(ops []extract.Operation) string {
	if len(ops) == 0 {
		return ""
	}
	return ops[0].Body
}

// sameIDs reports whether ids hold the comma-separated want, in any order.
func sameIDs(ids []string, want string) bool {
	return strings.Join(slices.Sorted(slices.Values(ids)), ",") == want
}
