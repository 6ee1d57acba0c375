package offline

import (
	"strings"
	"testing"
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
