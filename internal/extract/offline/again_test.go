package offline

import (
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
)

// TestSaidBefore keeps a rule the person says they are repeating ("Again, …", "Como ya te dije,
// …", "我再说一遍，…"), in one message, and nothing that only says something happened again.
func TestSaidBefore(t *testing.T) {
	tests := []struct {
		text string
		want string // the memory's description, "" for none
	}{
		{"Create the chart in ui.ts. Again, keep everything simple and don't use external libraries.", "Keep everything simple and don't use external libraries"},
		{"As I said before, never push to main.", "Never push to main"},
		{"Like I told you, use pnpm, not npm.", "Use pnpm, not npm"},
		{"Como ya te dije, no uses Chart.js.", "No uses Chart.js"},
		{"Encore une fois, ne touche pas aux textes.", "Ne touche pas aux textes"},
		{"Wie gesagt, verwende kein jQuery.", "Verwende kein jQuery"},
		{"Nogmaals, gebruik geen jQuery.", "Gebruik geen jQuery"},
		{"Như tôi đã nói, đừng dùng Chart.js.", "Đừng dùng Chart.js"},
		{"我再说一遍，不要改 go.mod。", "不要改 go.mod"},
		{"Как я уже говорил, не используй jQuery.", "Не используй jQuery"},
		{"Як я вже казав, не використовуй jQuery.", "Не використовуй jQuery"},
		{"Dediğim gibi, jQuery kullanma.", "JQuery kullanma"},
		{"Come ti ho già detto, non usare jQuery.", "Non usare jQuery"},
		{"Jak już mówiłem, nie używaj jQuery.", "Nie używaj jQuery"},
		{"Jak jsem říkal, nepoužívej jQuery.", "Nepoužívej jQuery"},
		{"Seperti yang saya bilang, jangan pakai jQuery.", "Jangan pakai jQuery"},
		{"다시 말하지만, jQuery 사용하지 마.", "JQuery 사용하지 마"},
		{"Как я уже говорил, тест падает.", ""},
		{"Sekali lagi, untuk sekarang jangan pakai jQuery.", ""},
		// Near misses: again, but no rule.
		{"Again, it fails with the same error.", ""},
		{"Try again, please.", ""},
		{"again the button is misaligned", ""},
		{"As I said, the bug is in the parser.", ""},
		{"Again, fix the header.", ""},
		{"Again, can you use pnpm?", ""},
		{"Otra vez, por ahora no uses Chart.js.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ops := run(t, nil, userSession("s1", day(18), tt.text)).Response.Operations
			var got []string
			for _, op := range ops {
				got = append(got, strings.TrimSuffix(op.Description, "."))
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("memories = %q, want %q", got, tt.want)
			}
			if tt.want != "" && len(ops) == 1 && !strings.Contains(ops[0].Body, "said again by the person") {
				t.Errorf("body %q does not say the person said it again", ops[0].Body)
			}
		})
	}
}

// TestRepeatedPort checks that the port the person asks the app to be started on in two sessions
// of a project is kept, and that one session asking twice, two ports, or a port named without
// starting anything is not.
func TestRepeatedPort(t *testing.T) {
	tests := []struct {
		name        string
		first, then []string // the person's messages of two sessions
		want        string   // the memory's description, "" for none
	}{
		{"two sessions, dictated", []string{"Lance l'application en localhost 5173"}, []string{"Arrête l'application et relance-la sur le port 51 73"}, "The app is run on port 5173."},
		{"two sessions, English", []string{"run the dev server on port 3000 please"}, []string{"restart the app on localhost:3000"}, "The app is run on port 3000."},
		{"two sessions, Chinese", []string{"请在 8080 端口启动开发服务器"}, []string{"重启一下，用 8080 端口启动服务吧"}, "The app is run on port 8080."},
		{"one session asking twice", []string{"relance l'appli en web 5173", "relance-la sur le port 5173"}, nil, ""},
		{"two ports", []string{"run it on port 3000"}, []string{"run it on port 5173"}, ""},
		{"no start", []string{"the API listens on port 8080"}, []string{"kill the process on port 8080"}, ""},
		{"not a port", []string{"run the migration 42 times"}, []string{"run the migration on 42"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sessions := []extract.Session{userSession("s1", day(16), tt.first...)}
			if tt.then != nil {
				sessions = append(sessions, userSession("s2", day(17), tt.then...))
			}
			var got []string
			for _, op := range run(t, nil, sessions...).Response.Operations {
				if strings.Contains(op.Description, "port") {
					got = append(got, op.Description)
				}
			}
			if strings.Join(got, "|") != tt.want {
				t.Errorf("memories %q, want %q", got, tt.want)
			}
		})
	}
}
